import { resolve } from 'node:path';
import { ExitCode } from '../cli/exit-codes.js';
import { UsageError } from '../cli/usage-error.js';
import { closestMatch } from '../lib/core/suggest.js';
import type { AgentEvent } from '../lib/events/types.js';
import type { AgentGraph } from '../lib/graph/agent-graph.js';
import { openCheckpointStore } from '../lib/graph/checkpoint/open-store.js';
import type { Checkpoint, CheckpointStore } from '../lib/graph/checkpoint/types.js';
import type { GraphStream } from '../lib/graph/graph-stream.js';
import type { GraphResult } from '../lib/graph/types.js';
import { loadGraph } from '../lib/graph/yaml/load-graph.js';
import { closeAllStorage } from '../lib/storage/connection-registry.js';
import { liveRun, wantsLiveView } from './graph/live-run.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { graphCassettes, type GraphCassettes } from './graph/cassettes.js';
import { renderOnlyProvider } from './graph/render-provider.js';
import { GraphTrace } from './graph/graph-trace.js';
import { SupervisorProgress } from './graph/supervisor-progress.js';

/** The exit code of a run that stopped at an interrupt (documented in docs/cli.md). */
export const EXIT_INTERRUPTED_FOR_INPUT = ExitCode.WAITING_FOR_INPUT;

const ACTIONS = ['render', 'run', 'resume', 'checkpoints', 'fork'] as const;
type Action = (typeof ACTIONS)[number];

/** The metadata key holding the graph file a run was started from (resume and fork load it). */
const GRAPH_FILE_KEY = 'agentlib.graphFile';

function action(value: unknown): Action {
  const word = typeof value === 'string' ? value : '';
  if ((ACTIONS as readonly string[]).includes(word)) return word as Action;
  const suggestion = closestMatch(word, ACTIONS);
  throw new UsageError(`unknown graph action "${word}"; expected one of ${ACTIONS.join(', ')}.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, suggestion ? { suggestion } : {});
}

function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `agentlib graph <action> …` (see cli/commands/graph-command.ts). */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const act = action(args.action);
  const rest = (Array.isArray(args.args) ? (args.args as unknown[]) : []).map(String);
  const cwd = context.io.cwd ?? process.cwd();
  const out = (text: string): void => void context.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const cassetteFlags = { ...(typeof args.record === 'string' ? { record: args.record } : {}), ...(typeof args.replay === 'string' ? { replay: args.replay } : {}) };
  if (act !== 'run' && act !== 'resume' && act !== 'fork' && Object.keys(cassetteFlags).length > 0) throw new UsageError(`--record and --replay apply to graph run, resume and fork, not to graph ${act}`);
  if (act !== 'run' && act !== 'resume' && act !== 'fork' && args.trace !== undefined) throw new UsageError(`--trace and --no-trace apply to graph run, resume and fork, not to graph ${act}`);
  if (act !== 'resume' && args['take-over'] !== undefined) throw new UsageError(`--take-over applies to graph resume, not to graph ${act}`);
  const trace = new GraphTrace(args.trace as string | boolean | undefined, cwd);
  const cassettes = graphCassettes({ ...cassetteFlags, cwd, env: context.io.env, warnUnused: act === 'run' });
  /** run, resume and fork: the live view on a terminal (text output), else the headless report. */
  const present = async (graph: AgentGraph, store: CheckpointStore, start: () => GraphStream, history?: readonly string[]): Promise<number> => {
    if (!wantsLiveView(args['output-format'], context.io)) return await report(args, context, trace.watch(start()), store, cassettes, trace);
    try {
      return await liveRun(graph, { io: context.io, color: context.color, runOptions: { checkpointStore: store, signal: context.signal, observers: [trace.observer] }, track: (stream) => trace.watch(stream), start, resumeCommand: (id) => resumeCommand(args, id), ...(history === undefined ? {} : { history }) });
    } finally {
      const tracePath = trace.finish();
      if (tracePath !== undefined) context.io.stderr.write(`trace ${tracePath}\n`);
      await store.close();
      for (const line of cassettes.finish()) context.io.stderr.write(`${line}\n`);
    }
  };
  try {
    switch (act) {
      case 'render': {
        if (rest.length !== 1) throw new UsageError('usage: agentlib graph render <graph.yaml> [--format mermaid|ascii|json]');
        // Drawing reads the structure only: no provider is created, so no API key is needed.
        const graph = await loadGraph(resolve(cwd, rest[0] as string), { createProvider: renderOnlyProvider });
        out(args.format === 'json' ? JSON.stringify(graph.toJSON(), null, 2) : args.format === 'ascii' ? await graph.visualize('ascii') : graph.toMermaid());
        return 0;
      }
      case 'run': {
        if (rest.length < 1 || rest.length > 2) throw new UsageError('usage: agentlib graph run <graph.yaml> [prompt] [--thread id] [--checkpoint url]');
        const file = resolve(cwd, rest[0] as string);
        const graph = await loadGraph(file, cassettes.loadOptions);
        cassettes.loaded();
        const store = await openCheckpointStore(String(args.checkpoint), { cwd });
        const options = { checkpointStore: store, metadata: { [GRAPH_FILE_KEY]: file }, signal: context.signal, observers: [trace.observer], ...(typeof args.thread === 'string' ? { threadId: args.thread } : {}) };
        return await present(graph, store, () => graph.stream(rest[1], options));
      }
      case 'resume': {
        if (rest.length !== 1) throw new UsageError('usage: agentlib graph resume <interruptId> --response "…"');
        if (typeof args.response !== 'string') throw new UsageError('graph resume needs --response "…" (the answer; JSON if it parses)');
        const response = parseValue(args.response);
        const interruptId = rest[0] as string;
        const store = await openCheckpointStore(String(args.checkpoint), { cwd });
        const latest = await store.getLatest(interruptId.slice(0, Math.max(0, interruptId.lastIndexOf(':'))));
        const graph = await graphOf(args, cwd, latest, cassettes);
        return await present(graph, store, () => graph.streamResume(interruptId, response, { checkpointStore: store, signal: context.signal, observers: [trace.observer], ...(args['take-over'] === true ? { takeOverClaim: true } : {}) }), latest?.state.history);
      }
      case 'fork': {
        if (rest.length !== 1) throw new UsageError('usage: agentlib graph fork <checkpointId> [--set key=value …]');
        const store = await openCheckpointStore(String(args.checkpoint), { cwd });
        const source = await store.get(rest[0] as string);
        if (!source) throw new UsageError(`no checkpoint "${rest[0] as string}" in ${String(args.checkpoint)}`);
        const data: Record<string, unknown> = {};
        for (const pair of (Array.isArray(args.set) ? (args.set as unknown[]) : []).map(String)) {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new UsageError(`--set takes key=value, got "${pair}"`);
          data[pair.slice(0, eq)] = parseValue(pair.slice(eq + 1));
        }
        const graph = await graphOf(args, cwd, source, cassettes);
        return await present(graph, store, () => graph.stream(undefined, { checkpointStore: store, fromCheckpoint: source.id, stateUpdate: { data }, signal: context.signal, observers: [trace.observer] }), source.state.history);
      }
      case 'checkpoints':
        return await checkpoints(args, rest, out, cwd);
    }
  } finally {
    await closeAllStorage();
  }
}

async function graphOf(args: CommandArguments, cwd: string, checkpoint: Checkpoint | undefined, cassettes: GraphCassettes): Promise<AgentGraph> {
  const file = typeof args.graph === 'string' ? resolve(cwd, args.graph) : checkpoint?.state.metadata[GRAPH_FILE_KEY];
  if (typeof file !== 'string') throw new UsageError('the checkpoint does not say which graph file it ran; pass --graph <graph.yaml>');
  const graph = await loadGraph(file, cassettes.loadOptions);
  cassettes.loaded();
  return graph;
}

async function report(args: CommandArguments, context: CommandContext, stream: GraphStream, store: CheckpointStore, cassettes: GraphCassettes, trace: GraphTrace): Promise<number> {
  const format = typeof args['output-format'] === 'string' ? args['output-format'] : 'text';
  const io = context.io;
  const supervisor = new SupervisorProgress(store);
  let result: GraphResult;
  try {
    for await (const event of stream) {
      if (format === 'stream-json') io.stdout.write(`${JSON.stringify(event)}\n`);
      else if (format === 'text') {
        textProgress(event, io.stderr);
        if (event.type === 'graph-checkpoint' && event.parentRunId === undefined) for (const line of await supervisor.update(event.checkpointId)) io.stderr.write(`${line}\n`);
      }
    }
    result = await stream.result;
  } catch (error) {
    const tracePath = trace.finish();
    if (tracePath !== undefined) io.stderr.write(`trace ${tracePath}\n`);
    throw error;
  }
  const tracePath = trace.finish();
  await store.close();
  for (const line of cassettes.finish()) io.stderr.write(`${line}\n`);
  if (format === 'json') io.stdout.write(`${JSON.stringify({ ...summary(result), trace: tracePath ?? null }, null, 2)}\n`);
  else if (format === 'stream-json') io.stdout.write(`${JSON.stringify({ type: 'result', ...summary(result), trace: tracePath ?? null })}\n`);
  else {
    if (tracePath !== undefined) io.stderr.write(`trace ${tracePath}\n`);
    if (result.content !== '') io.stdout.write(`${result.content}\n`);
    for (const pending of result.interrupts) {
      io.stderr.write(`interrupted at ${pending.path.join(' > ')}: ${pending.prompt}\n`);
      io.stderr.write(`  resume: ${resumeCommand(args, pending.id)}\n`);
    }
  }
  if (result.interrupted) return EXIT_INTERRUPTED_FOR_INPUT;
  if (result.status === 'cancelled') return ExitCode.INTERRUPTED;
  return result.status === 'completed' ? ExitCode.OK : ExitCode.RUNTIME;
}

/** The command that answers interrupt `id` later. */
function resumeCommand(args: CommandArguments, id: string): string {
  return `agentlib graph resume ${id} --response "…"${String(args.checkpoint) === 'sqlite://' ? '' : ` --checkpoint ${String(args.checkpoint)}`}`;
}

function summary(result: GraphResult): Record<string, unknown> {
  return {
    status: result.status,
    content: result.content,
    threadId: result.threadId,
    runId: result.runId,
    interrupted: result.interrupted,
    interruptId: result.interruptId ?? null,
    interrupts: result.interrupts,
    steps: result.steps,
    checkpointId: result.checkpointId ?? null,
    history: result.state.history,
    totalUsage: result.totalUsage.toJSON(),
  };
}

function textProgress(event: AgentEvent, stderr: CommandContext['io']['stderr']): void {
  if (event.type === 'node-start') stderr.write(`▸ ${event.node}\n`);
  else if (event.type === 'node-end') stderr.write(`✓ ${event.node} (${event.durationMs} ms)\n`);
  else if (event.type === 'supervisor-replan') stderr.write(`↻ ${event.supervisor} replans (after ${event.round} turns): ${event.reason}\n`);
  else if (event.type === 'graph-error') stderr.write(`x ${event.node ?? event.graph}: ${event.error.message}\n`);
}

async function checkpoints(args: CommandArguments, rest: string[], out: (text: string) => void, cwd: string): Promise<number> {
  const [sub, id] = rest;
  const store = await openCheckpointStore(String(args.checkpoint), { cwd });
  const json = args['output-format'] === 'json' || args.outputFormat === 'json';
  try {
    switch (sub) {
      case 'ls': {
        const threads = typeof args.thread === 'string' ? [args.thread] : await store.threads();
        const rows: Checkpoint[] = [];
        for (const thread of threads) rows.push(...(await store.list(thread, { limit: Number(args.limit) || 20 })));
        if (json) out(JSON.stringify(rows.map((c) => ({ id: c.id, threadId: c.threadId, parentId: c.parentId, graph: c.graph, step: c.step, node: c.node, source: c.source, status: c.status, createdAt: c.createdAt, interrupts: c.interrupts.map((i) => i.id) })), null, 2));
        else for (const c of rows) out(`${c.id}  ${c.threadId}  step ${c.step}  ${c.source.padEnd(9)} ${c.status.padEnd(11)} ${c.node ?? '-'}  ${c.createdAt}`);
        if (rows.length === 0) return 4;
        return 0;
      }
      case 'show': {
        if (id === undefined) throw new UsageError('usage: agentlib graph checkpoints show <checkpointId>');
        const c = await store.get(id);
        if (!c) throw new UsageError(`no checkpoint "${id}"`);
        out(JSON.stringify(c, null, 2));
        return 0;
      }
      case 'rm': {
        const thread = typeof args.thread === 'string' ? args.thread : id;
        if (thread === undefined) throw new UsageError('usage: agentlib graph checkpoints rm --thread <threadId>');
        out(`removed ${await store.deleteThread(thread)} checkpoints of thread ${thread}`);
        return 0;
      }
      default:
        throw new UsageError('usage: agentlib graph checkpoints ls|show|rm [--thread id]');
    }
  } finally {
    await store.close();
  }
}
