import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib eval`: options only; the implementation (commands/eval.ts) loads when it runs. */
export const evalCommand: CommandDescriptor = {
  name: 'eval',
  positionals: '<action> [files..]',
  description: 'Evaluate an agent on a test suite: run, merge shard reports, compare, view',
  examples: [
    ['$0 eval run templates/customer_support/eval.yaml --replay templates/customer_support/eval-cassettes -o report.junit.xml', 'run a suite offline from recorded calls, JUnit for CI'],
    ['$0 eval run templates/rag_chatbot/eval.yaml --replay templates/rag_chatbot/cassette.jsonl --fail-under 0.9 -o summary.md', 'exit 1 when accuracy is under 90 %; Markdown for $GITHUB_STEP_SUMMARY'],
  ],
  builder: (yargs) =>
    yargs
      .example('$0 eval run templates/data_analyst/eval.yaml --replay templates/data_analyst/eval-cassettes --shard 1/2 -o shard1.json', 'run a stable half of the cases (one job of a CI matrix)')
      .example('$0 eval run templates/rag_chatbot/eval.yaml --replay templates/rag_chatbot/cassette.jsonl -o report.json && $0 eval compare report.json report.json', 'regressions, improvements, cost and latency deltas against a baseline report')
      .example('$0 eval run templates/customer_support/eval.yaml --replay templates/customer_support/eval-cassettes -o report.json && $0 eval view report.json', 'a saved report, failed cases first (--case <name>: one case and its traces)')
      .positional('action', { type: 'string', describe: 'run (a suite file), merge (shard reports), compare (baseline, current), view (a report)' })
      .positional('files', { type: 'string', array: true, describe: 'run: the suite YAML; merge: report JSON files; compare: two reports (files or store url#name); view: one report' })
      .option('jobs', { alias: 'j', type: 'number', describe: "cases run at once (default: the suite's evaluateOptions.maxConcurrency, else 4)" })
      .option('repeat', { type: 'number', describe: 'runs per case; a case passes only if every run passes (pass^k)' })
      .option('timeout-ms', { type: 'number', describe: 'per-run timeout in ms (0: none)' })
      .option('filter-pattern', { type: 'string', describe: 'run only cases whose name or description matches this regular expression' })
      .option('filter-tag', { type: 'string', array: true, describe: 'run only cases with one of these tags (repeatable)' })
      .option('filter-metadata', { type: 'string', array: true, describe: 'run only cases whose metadata has key=value (repeatable; all must match)' })
      .option('shard', { type: 'string', describe: 'run the stable slice i of n of the cases: --shard 1/4' })
      .option('grader', { type: 'string', describe: 'the judge for LLM-judge assertions: provider:model (openai:gpt-4o-mini)' })
      .option('record', { type: 'string', describe: 'record every provider call to this cassette (judge calls to <name>.grader.jsonl)' })
      .option('replay', { type: 'string', describe: 'answer every provider call from this cassette (offline, deterministic)' })
      .option('snapshots', { type: 'string', describe: 'where snapshot assertions keep snapshots: a store URL (default file://<suite dir>/__snapshots__)' })
      .option('update-snapshots', { alias: 'u', type: 'boolean', describe: 'rewrite snapshots that differ (and, on a full run, remove obsolete ones) instead of failing' })
      .option('output', { alias: 'o', type: 'string', array: true, describe: 'write the report by extension: .json .jsonl .md .html .junit.xml/.xml (repeatable)' })
      .option('baseline', { type: 'string', describe: 'compare with a report JSON, a directory holding <suite>.json, or a stored baseline url#name (sqlite://#main): a regression exits 1' })
      .option('save-baseline', { type: 'string', describe: 'save this run as a baseline: url#name (sqlite://#main, file://baselines#main, redis://…, postgres://…; name defaults to the suite file name)' })
      .option('margin', { type: 'number', default: 0, describe: 'compare/--baseline: accuracy may fall by this much (0..1) before it is a regression' })
      .option('history', { type: 'string', describe: 'append the run\'s totals to this eval history store: sqlite:// (.agentlib/agentlib.db), sqlite://file.db or memory://' })
      .option('fail-under', { type: 'number', describe: 'exit 0 when accuracy ≥ this (0..1), else 1 (default: every case must pass)' })
      .option('case', { type: 'string', describe: 'view: show this case in full and save its run traces' })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON document instead of the table' })
      .group(['jobs', 'repeat', 'timeout-ms', 'grader'], 'Running:')
      .group(['filter-pattern', 'filter-tag', 'filter-metadata', 'shard'], 'Selecting cases:')
      .group(['record', 'replay'], 'Record / replay:')
      .group(['snapshots', 'update-snapshots'], 'Snapshots:')
      .group(['output', 'json', 'baseline', 'save-baseline', 'margin', 'fail-under', 'history', 'case'], 'Reports:'),
  load: () => import('../../commands/eval.js'),
};
