import { Agent } from '../agent/agent.js';
import { CheckpointNotFoundError } from '../core/errors/checkpoint-not-found-error.js';
import { GraphExecutionError } from '../core/errors/graph-execution-error.js';
import { InterruptError } from '../core/errors/interrupt-error.js';
import { generateId } from '../core/ids.js';
import { linkSignals } from '../core/linked-signal.js';
import type { Message } from '../core/message.js';
import type { AgentEvent } from '../events/types.js';
import { InMemoryCheckpointStore } from './checkpoint/memory-store.js';
import { checkStoreId } from '../storage/store-id.js';
import type { Checkpoint, CheckpointStore, ListCheckpointsOptions } from './checkpoint/types.js';
import { END, MergePolicy } from './constants.js';
import { claimInterrupt, pendingInterrupt, refuseTakeOver } from './interrupt-claim.js';
import { GraphStream } from './graph-stream.js';
import { LiveGenerators } from './live-generators.js';
import type { GraphDefinition, LeafSpec, NodeSpec, RouterSpec } from './node-spec.js';
import { freshSnapshot, writeCheckpoint, type RunSetup } from './run-graph.js';
import { forkSnapshot, runSetup, runToResult } from './graph-run-setup.js';
import { initialState } from './state.js';
import { graphToJSON, type GraphJSON } from './render/to-json.js';
import { graphToAscii, type AsciiOptions } from './render/ascii.js';
import { graphToMermaid } from './render/mermaid.js';
import type { AgentGraphOptions, GraphResult, GraphRunOptions, NodeFunction, NodeGenerator, NodeOptions, Router } from './types.js';

/** What a node runs: an Agent, a function of the state, or an async generator function. */
export type NodeTarget = Agent | NodeFunction | NodeGenerator;

/** Options of `addParallelNodes`. */
export interface ParallelOptions extends Pick<NodeOptions, 'next' | 'interruptBefore'> {
  /** How the members' results merge. Default LAST_WINS. */
  merge?: MergePolicy;
}

/** Options of `addSubgraph`. */
export interface SubgraphOptions extends Pick<NodeOptions, 'next' | 'interruptBefore'> {
  /** Parent data key → child data key the child starts with (default: a copy of all the parent's data). */
  inputMap?: Record<string, string>;
  /** Child data key → parent data key copied back when the child ends (default: none; the output always is). */
  outputMap?: Record<string, string>;
}

/** The input of a run: a prompt, messages, or nothing (state from `data`). */
export type GraphInput = string | readonly Message[] | undefined;

/**
 * A graph of agents and functions: nodes, static and conditional edges (a router may scatter to
 * several nodes at once), parallel groups, subgraphs; checkpoints after every step; interrupts a
 * person answers (`resume`), in this process or another; time travel from any checkpoint.
 *
 * @example
 * const graph = new AgentGraph({ name: 'review' })
 *   .addNode('draft', writer, { next: 'check' })
 *   .addNode('check', async function* (state): Interruptible {
 *     const ok = yield new InterruptRequest('Publish?', { draft: state.data.__last_output__ });
 *     return { data: { approved: ok === 'yes' } };
 *   })
 *   .setEntry('draft');
 * const result = await graph.run('Write a haiku about tides', { checkpointStore });
 * if (result.interrupted) await graph.resume(result.interruptId!, 'yes', { checkpointStore });
 */
export class AgentGraph {
  /** The name routers return (and edges point to) to end the run. */
  static readonly END = END;

  readonly #options: AgentGraphOptions;
  readonly #nodes = new Map<string, NodeSpec>();
  readonly #edges = new Map<string, string>();
  readonly #routers = new Map<string, RouterSpec>();
  readonly #live = new LiveGenerators();
  #entry: string | undefined;
  #memory: InMemoryCheckpointStore | undefined;

  constructor(options: AgentGraphOptions = {}) {
    this.#options = options;
  }

  /**
   * A linear graph of the given nodes, in order (each node named after the agent, or the
   * function's name, made unique with `_2`, `_3`, …).
   */
  static chain(...targets: NodeTarget[]): AgentGraph {
    const graph = new AgentGraph({ name: 'chain' });
    const names: string[] = [];
    targets.forEach((target, i) => {
      const base = (target instanceof Agent ? target.name : target.name) || `node_${i + 1}`;
      let name = base;
      for (let n = 2; names.includes(name); n++) name = `${base}_${n}`;
      names.push(name);
      graph.addNode(name, target);
    });
    for (let i = 1; i < names.length; i++) graph.addEdge(names[i - 1] as string, names[i] as string);
    if (names[0] !== undefined) graph.setEntry(names[0]);
    return graph;
  }

  /** The graph's name. */
  get name(): string {
    return this.#options.name ?? 'graph';
  }

  /** Node names in the order they were added. */
  get nodeNames(): string[] {
    return [...this.#nodes.keys()];
  }

  /** The entry node. */
  get entry(): string | undefined {
    return this.#entry;
  }

  /** Adds a node running an Agent, a function of the state, or an async generator (which may interrupt). */
  addNode(name: string, target: NodeTarget, options: NodeOptions = {}): this {
    this.#addSpec(this.#leaf(name, target, options), options.next);
    return this;
  }

  /** A static edge: after `from`, run `to` (or END). */
  addEdge(from: string, to: string): this {
    this.#checkName(from, 'an edge source');
    if (from === END) throw new GraphExecutionError('an edge cannot start at END');
    const existing = this.#edges.get(from);
    if (existing !== undefined && existing !== to) {
      throw new GraphExecutionError(`node "${from}" already has an edge to "${existing}"; a node has one successor (use addConditionalEdge to choose, addParallelNodes to run several)`, { node: from });
    }
    this.#edges.set(from, to);
    return this;
  }

  /**
   * A conditional edge: after `from`, `router(state)` picks the next node (a name or END), or
   * several (names or `Send`s with payloads) that run in parallel. `targets` declares the nodes it
   * may return (diagrams draw them; another return is an error).
   */
  addConditionalEdge(from: string, router: Router, options: { targets?: readonly string[] } = {}): this {
    this.#checkName(from, 'a conditional edge source');
    if (this.#routers.has(from)) throw new GraphExecutionError(`node "${from}" already has a conditional edge`, { node: from });
    this.#routers.set(from, { router, targets: options.targets ? [...options.targets] : undefined });
    return this;
  }

  /**
   * A parallel group: one node `name` whose members run at once on the same state; their results
   * merge by `merge` (LAST_WINS, FIRST_WINS, APPEND; see mergeOutcomes), in declaration order.
   */
  addParallelNodes(name: string, members: Readonly<Record<string, NodeTarget>>, options: ParallelOptions = {}): this {
    const leaves: LeafSpec[] = Object.entries(members).map(([member, target]) => this.#leaf(member, target, {}));
    if (leaves.length === 0) throw new GraphExecutionError(`parallel group "${name}" has no members`, { node: name });
    for (const leaf of leaves) this.#checkNew(leaf.name);
    const merge = options.merge ?? MergePolicy.LAST_WINS;
    if (!Object.values(MergePolicy).includes(merge)) throw new GraphExecutionError(`parallel group "${name}": unknown merge policy "${String(merge)}" (use ${Object.values(MergePolicy).join(', ')})`, { node: name });
    const nodeOptions: NodeOptions = options.interruptBefore === undefined ? {} : { interruptBefore: options.interruptBefore };
    this.#addSpec({ kind: 'parallel', name, members: leaves, merge, options: nodeOptions }, options.next);
    // Members' names are reserved too (results and history use them).
    for (const leaf of leaves) this.#memberNames.add(leaf.name);
    return this;
  }

  /** A subgraph: `graph` runs as one node (its events nested under this run; its interrupts interrupt this run). */
  addSubgraph(name: string, graph: AgentGraph, options: SubgraphOptions = {}): this {
    if (graph === this) throw new GraphExecutionError(`subgraph "${name}" cannot be the graph itself`, { node: name });
    const nodeOptions: NodeOptions = options.interruptBefore === undefined ? {} : { interruptBefore: options.interruptBefore };
    this.#addSpec({ kind: 'subgraph', name, graph, inputMap: options.inputMap, outputMap: options.outputMap, options: nodeOptions }, options.next);
    return this;
  }

  /** The node a run starts at. */
  setEntry(name: string): this {
    this.#checkName(name, 'the entry');
    this.#entry = name;
    return this;
  }

  /**
   * Every structural problem at once (no entry, an edge to a missing node, a node with both a
   * static and a conditional edge, …); empty when the graph can run.
   */
  problems(): string[] {
    const problems: string[] = [];
    if (this.#nodes.size === 0) problems.push('the graph has no nodes');
    if (this.#entry === undefined) problems.push('no entry node: call setEntry(name)');
    else if (!this.#nodes.has(this.#entry)) problems.push(`the entry "${this.#entry}" is not a node`);
    for (const [from, to] of this.#edges) {
      if (!this.#nodes.has(from)) problems.push(`edge ${from} -> ${to}: "${from}" is not a node`);
      if (to !== END && !this.#nodes.has(to)) problems.push(`edge ${from} -> ${to}: "${to}" is not a node`);
      if (this.#routers.has(from)) problems.push(`node "${from}" has both an edge (to "${to}") and a conditional edge`);
    }
    for (const [from, router] of this.#routers) {
      if (!this.#nodes.has(from)) problems.push(`conditional edge from "${from}": not a node`);
      for (const target of router.targets ?? []) if (target !== END && !this.#nodes.has(target)) problems.push(`conditional edge from "${from}": target "${target}" is not a node`);
    }
    return problems;
  }

  /** Throws a GraphExecutionError listing every problem, if any. */
  validate(): void {
    const problems = this.problems();
    if (problems.length > 0) throw new GraphExecutionError(`graph "${this.name}" cannot run:\n  - ${problems.join('\n  - ')}`);
  }

  /** Runs the graph on `input` (a prompt, messages, or nothing) and resolves when it ends or is interrupted. */
  run(input?: GraphInput, options: GraphRunOptions = {}): Promise<GraphResult> {
    return this.#start(input, options, undefined, undefined);
  }

  /** Runs with live events (graph events plus every nested agent event). */
  stream(input?: GraphInput, options: GraphRunOptions = {}): GraphStream {
    const controller = new AbortController();
    return new GraphStream((push) => this.#start(input, options, push, controller.signal), (reason) => controller.abort(reason));
  }

  /**
   * Answers interrupt `interruptId` and goes on. In the process that was interrupted the waiting
   * generator gets `response` at its yield; elsewhere (a new process, after a restart) only the
   * interrupted node is entered again, with earlier answers replayed at its earlier yields; no
   * other node runs again. Throws InterruptError for an unknown or already used id.
   */
  resume(interruptId: string, response: unknown, options: GraphRunOptions = {}): Promise<GraphResult> {
    return this.#resume(interruptId, response, options, undefined, undefined);
  }

  /** `resume` with live events. */
  streamResume(interruptId: string, response: unknown, options: GraphRunOptions = {}): GraphStream {
    const controller = new AbortController();
    return new GraphStream((push) => this.#resume(interruptId, response, options, push, controller.signal), (reason) => controller.abort(reason));
  }

  /**
   * Goes on with a thread from its latest checkpoint (after a crash or a cancel, a budget stop):
   * the nodes that finished are not run again. A thread waiting on an interrupt needs `resume`.
   */
  continueThread(threadId: string, options: GraphRunOptions = {}): Promise<GraphResult> {
    return this.#continue(threadId, options, undefined, undefined);
  }

  /** A thread's checkpoints, newest first (time travel: run again `fromCheckpoint` one of them). */
  history(threadId: string, options: ListCheckpointsOptions & { checkpointStore?: CheckpointStore } = {}): Promise<Checkpoint[]> {
    const { checkpointStore, ...page } = options;
    return this.#storeOf(checkpointStore).list(checkStoreId(threadId, 'thread id'), page);
  }

  /** Mermaid flowchart text: conditional edges dashed and labelled, parallel groups and subgraphs as Mermaid subgraphs. */
  toMermaid(): string {
    return graphToMermaid(this.definition());
  }

  /**
   * The graph drawn for a terminal: `'ascii'` lays it out with boxes and arrows (beautiful-mermaid's
   * Mermaid-to-ASCII renderer, loaded on first use): conditional edges dashed, parallel groups and
   * subgraphs as titled boxes around their nodes, START and END as circles, `⏸` on a node that asks
   * a person before it runs. `{ charset: 'ascii' }` keeps to `+ - | > v`.
   */
  visualize(format: 'ascii', options: AsciiOptions = {}): Promise<string> {
    if (format !== 'ascii') return Promise.reject(new GraphExecutionError(`visualize: unknown format "${String(format)}"; expected "ascii" (toMermaid() and toJSON() give the others)`));
    return graphToAscii(this.definition(), options);
  }

  /** The graph's structure as JSON (nodes, edges, conditional edges, groups, subgraphs). */
  toJSON(): GraphJSON {
    return graphToJSON(this.definition());
  }

  /** @internal What the runner and the renderers read. */
  definition(): GraphDefinition {
    return { name: this.name, nodes: this.#nodes, edges: this.#edges, routers: this.#routers, entry: this.#entry, options: this.#options, live: this.#live };
  }

  // ---------------------------------------------------------------------------------------------

  readonly #memberNames = new Set<string>();

  #checkName(name: string, what: string): void {
    if (typeof name !== 'string' || name.length === 0) throw new GraphExecutionError(`${what} needs a node name`);
  }

  #checkNew(name: string): void {
    this.#checkName(name, 'a node');
    if (name === END) throw new GraphExecutionError(`"${END}" is reserved for AgentGraph.END`);
    if (/[|:/]/.test(name)) throw new GraphExecutionError(`node name "${name}" contains | : or /, which the graph uses as separators`, { node: name });
    if (this.#nodes.has(name) || this.#memberNames.has(name)) throw new GraphExecutionError(`graph "${this.name}" already has a node "${name}"`, { node: name });
  }

  #addSpec(spec: NodeSpec, next: string | undefined): void {
    this.#checkNew(spec.name);
    this.#nodes.set(spec.name, spec);
    if (next !== undefined) this.addEdge(spec.name, next);
  }

  #leaf(name: string, target: NodeTarget, options: NodeOptions): LeafSpec {
    if (target instanceof Agent) return { kind: 'agent', name, agent: target, options };
    if (typeof target !== 'function') throw new GraphExecutionError(`node "${name}": expected an Agent, a function or an async generator function`, { node: name });
    for (const key of ['contextMode', 'contextN', 'contextFn', 'summaryProvider', 'summaryModel', 'summaryMaxTokens'] as const) {
      if (options[key] !== undefined) throw new GraphExecutionError(`node "${name}": ${key} applies to agent nodes only`, { node: name });
    }
    return { kind: 'function', name, fn: target, options };
  }

  #storeOf(store: CheckpointStore | undefined): CheckpointStore {
    return store ?? this.#options.checkpointStore ?? (this.#memory ??= new InMemoryCheckpointStore());
  }

  #setup(options: GraphRunOptions, threadId: string, sink: ((e: AgentEvent) => void) | undefined, signal: AbortSignal, parentCheckpointId: string | null, responses: ReadonlyMap<string, unknown>, runId?: string): RunSetup {
    const interruptStore = this.#storeOf(options.checkpointStore ?? this.#options.checkpointStore);
    return runSetup({ def: this.definition(), graphOptions: this.#options, options, threadId, sink, signal, parentCheckpointId, responses, interruptStore, ...(runId === undefined ? {} : { runId }) });
  }

  #signal(options: GraphRunOptions, own: AbortSignal | undefined): { signal: AbortSignal; dispose: () => void } {
    const link = linkSignals([options.signal, options.cancellationToken?.signal, own], { ownAbort: true });
    return { signal: link.signal, dispose: () => link.dispose() };
  }

  async #start(input: GraphInput, options: GraphRunOptions, sink: ((e: AgentEvent) => void) | undefined, own: AbortSignal | undefined): Promise<GraphResult> {
    this.validate();
    refuseTakeOver(options, 'run');
    const threadId = checkStoreId(options.threadId ?? generateId('thread'), 'thread id');
    const { signal, dispose } = this.#signal(options, own);
    try {
      if (options.fromCheckpoint !== undefined) {
        const store = this.#storeOf(options.checkpointStore);
        const source = await store.get(options.fromCheckpoint);
        if (!source) throw new CheckpointNotFoundError('checkpoint', options.fromCheckpoint);
        if (source.graph !== this.name) throw new GraphExecutionError(`checkpoint "${source.id}" is of graph "${source.graph}", not "${this.name}"`);
        if (input !== undefined) throw new GraphExecutionError('a run fromCheckpoint takes no input: change the state with stateUpdate');
        const setup = this.#setup(options, options.threadId === undefined ? source.threadId : threadId, sink, signal, source.id, new Map());
        const snapshot = forkSnapshot(source, options.stateUpdate);
        await writeCheckpoint(setup, store, snapshot, 'fork', source.node);
        return await runToResult(setup, snapshot);
      }
      if (options.stateUpdate !== undefined) throw new GraphExecutionError('stateUpdate needs fromCheckpoint');
      const setup = this.#setup(options, threadId, sink, signal, null, new Map());
      const snapshot = freshSnapshot(setup.def, initialState(input, options.data, options.metadata));
      if (setup.stepStore) {
        if (options.threadId !== undefined && (await setup.stepStore.getLatest(threadId))) {
          throw new GraphExecutionError(`thread "${threadId}" already has checkpoints: continue it with continueThread/resume, fork it with fromCheckpoint, or use a new thread id`);
        }
        await writeCheckpoint(setup, setup.stepStore, snapshot, 'input', null);
      }
      return await runToResult(setup, snapshot);
    } finally {
      dispose();
    }
  }

  async #resume(interruptId: string, response: unknown, options: GraphRunOptions, sink: ((e: AgentEvent) => void) | undefined, own: AbortSignal | undefined): Promise<GraphResult> {
    this.validate();
    const colon = interruptId.lastIndexOf(':');
    if (colon <= 0) throw new InterruptError(interruptId, 'unknown');
    const threadId = interruptId.slice(0, colon);
    const store = this.#storeOf(options.checkpointStore);
    const first = await pendingInterrupt(store, threadId, interruptId);
    if (first.latest.graph !== this.name) throw new GraphExecutionError(`interrupt "${interruptId}" belongs to graph "${first.latest.graph}", not "${this.name}"`);
    const owner = await claimInterrupt(store, threadId, interruptId, options.takeOverClaim === true);
    const { signal, dispose } = this.#signal(options, own);
    try {
      // Still pending now that it is ours: a resume that ended between the read and the claim moved the thread on.
      const { latest, pending } = await pendingInterrupt(store, threadId, interruptId);
      const setup = this.#setup(options, threadId, sink, signal, latest.id, new Map([[interruptId, response]]), owner);
      const event = { type: 'graph-resume', runId: setup.runId, timestamp: Date.now(), ...(setup.parentRunId === undefined ? {} : { parentRunId: setup.parentRunId }), graph: this.name, node: pending.node, interruptId } as const;
      sink?.(event);
      const p = setup.bus.emit(event);
      if (p) await p;
      return await runToResult(setup, { ...latest, interrupts: [] });
    } finally {
      dispose();
      // After a run that went on, the thread's latest checkpoint no longer holds the interrupt
      // ('used'); after one that failed before its first checkpoint, it can be answered again.
      // A release that fails leaves a claim on an interrupt the run has answered (harmless: it is
      // 'used' now) or on one a failed run leaves pending (then answered with takeOverClaim); it
      // must not hide the run's own outcome.
      await store.releaseInterrupt(threadId, interruptId, owner).catch(() => undefined);
    }
  }

  async #continue(threadId: string, options: GraphRunOptions, sink: ((e: AgentEvent) => void) | undefined, own: AbortSignal | undefined): Promise<GraphResult> {
    this.validate();
    refuseTakeOver(options, 'continueThread');
    const store = this.#storeOf(options.checkpointStore);
    const latest = await store.getLatest(checkStoreId(threadId, 'thread id'));
    if (!latest) throw new CheckpointNotFoundError('thread', threadId);
    if (latest.graph !== this.name) throw new GraphExecutionError(`thread "${threadId}" belongs to graph "${latest.graph}", not "${this.name}"`);
    if (latest.interrupts.length > 0) throw new GraphExecutionError(`thread "${threadId}" waits on interrupt "${latest.interrupts[0]?.id ?? ''}": answer it with resume`);
    const { signal, dispose } = this.#signal(options, own);
    try {
      return await runToResult(this.#setup(options, threadId, sink, signal, latest.id, new Map()), latest);
    } finally {
      dispose();
    }
  }
}

