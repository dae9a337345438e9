import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib trace`: options only; the implementation (commands/trace.ts) loads when it runs. */
export const traceCommand: CommandDescriptor = {
  name: 'trace',
  positionals: '<action> [traces..]',
  description: 'Inspect saved run traces: view, ls, show, export (OTLP), diff, stats',
  examples: [
    ['$0 trace ls', 'the traces under .agentlib/traces, newest first (agent, status, duration, tokens, cost)'],
    ['$0 trace view run_3f2a', 'browse a trace (id, id prefix or file): tree, waterfall, details'],
    ['$0 trace diff run_3f2a run_9c1d --json', 'compare two runs: steps, tool calls, tokens, cost'],
  ],
  builder: (yargs) =>
    yargs
      .example('$0 trace ls --limit 5', 'the five newest traces')
      .example('$0 trace view', 'open the latest trace in the interactive viewer (static tree when piped)')
      .example('$0 trace view run_3f2a', 'open one trace (id, id prefix or file)')
      .example('$0 trace view run_3f2a --tree | less', 'the static step tree with the waterfall')
      .example('$0 trace show run_3f2a --json | jq .totals', 'the whole trace as one JSON document')
      .example('$0 trace export run_3f2a --otlp spans.json', 'OTLP/JSON for an OpenTelemetry collector (POST /v1/traces)')
      .example('$0 trace diff run_3f2a run_9c1d', 'steps, tool calls, tokens and cost side by side')
      .example('$0 trace ls --store sqlite:// --agent support --since 24h', 'traces of a SQLite trace store, filtered')
      .example('$0 trace stats --since 7d --by tool', 'per tool: calls, success rate, cache hits, p50/p95 latency')
      .positional('action', {
        type: 'string',
        describe: 'view (interactive; static when piped), ls (list), show (static tree), export (OTLP/JSON), diff (two traces), stats (analytics)',
      })
      .positional('traces', {
        type: 'string',
        array: true,
        describe: 'trace ids (a unique prefix is enough) or .jsonl files: one for show/export, two for diff; view takes one or none (the latest)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document (ls, show, view, diff, stats)' })
      .option('tree', { type: 'boolean', default: false, describe: 'view: print the static step tree instead of opening the viewer' })
      .option('ascii', { type: 'boolean', default: false, describe: 'draw the tree and waterfall bars with ASCII only' })
      .option('dir', { type: 'string', describe: 'the trace directory ids are looked up in (default .agentlib/traces)' })
      .option('limit', { type: 'number', default: 20, describe: 'ls: show at most this many traces (0: all)' })
      .option('otlp', { type: 'string', describe: 'export: an http(s) collector URL to send the spans to (http://localhost:4318), or a file for the OTLP/JSON request body (default: stdout)' })
      .option('otlp-protocol', { choices: ['protobuf', 'json'] as const, default: 'protobuf', describe: 'export to a collector: OTLP/HTTP protobuf or JSON' })
      .option('service-name', { type: 'string', default: 'agentlib', describe: 'export: the service.name resource attribute' })
      .option('store', { type: 'string', describe: 'read traces from a store instead of the directory: sqlite:// (.agentlib/agentlib.db), sqlite://file.db, file://dir, memory://' })
      .option('agent', { type: 'string', describe: 'ls --store: only this agent' })
      .option('status', { type: 'string', describe: 'ls --store: only runs with this status (completed, failed, …)' })
      .option('tag', { type: 'string', describe: 'ls --store: only runs tagged so (trace metadata "tags")' })
      .option('since', { type: 'string', describe: 'stats, ls --store: only runs that started within this age (30m, 24h, 7d, 2w) or since a date (2026-01-31)' })
      .option('by', { type: 'string', choices: ['tool', 'model', 'agent'], describe: 'stats: one table (default: tools, models and agents)' })
      .group(['json', 'tree', 'ascii'], 'Output:')
      .group(['dir', 'store', 'limit', 'agent', 'status', 'tag'], 'Listing:')
      .group(['since', 'by'], 'Stats:')
      .group(['otlp', 'otlp-protocol', 'service-name'], 'Export:'),
  load: () => import('../../commands/trace.js'),
};
