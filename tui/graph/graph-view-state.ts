import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import type { AgentEvent } from '../../lib/events/types.js';
import type { DiagramNode } from '../../lib/graph/render/diagram-nodes.js';
import type { ToolCard } from '../chat/chat-state.js';

/** The state of one node in the live view. */
export type NodeStatus = 'pending' | 'running' | 'done' | 'failed' | 'interrupted' | 'skipped';

/** What the view shows of one node. */
export interface NodeView {
  status: NodeStatus;
  /** Times it finished (a node in a loop runs more than once). */
  runs: number;
  durationMs?: number;
}

/** The streamed text and tool calls of a node's nested agent run. */
export interface NodeActivity {
  /** As streamed (its tail): draw it through {@link activityText}. */
  text: string;
  tools: ToolCard[];
}

/** A question the run waits on (from `graph-interrupt`). */
export interface PendingQuestion {
  interruptId: string;
  /** The key of the node that asked. */
  node: string;
  prompt: string;
}

/** Everything the graph view draws, built from the run's events by {@link graphViewReducer}. */
export interface GraphViewState {
  graph: string;
  /** The top-level run now going (the latest `graph-start` without a parent run). */
  runId: string | undefined;
  nodes: Readonly<Record<string, NodeView>>;
  /** Node keys in drawing order. */
  order: readonly string[];
  /** The node keys running now, in the order they started (several for parallel branches). */
  running: readonly string[];
  /** Nested agent activity per node key (the latest run of that node). */
  activity: Readonly<Record<string, NodeActivity>>;
  tokens: number;
  costUsd: number;
  steps: number;
  questions: readonly PendingQuestion[];
  /** Set when the run has ended. */
  outcome: { status: string; message?: string } | undefined;
  /** Subgraph runs: child runId → the key prefix of its nodes (`review__`). */
  childRuns: Readonly<Record<string, string>>;
  /** How a node name resolves to a key under a prefix: `prefix` → name → key. */
  names: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Subgraph node keys → the child graph's name (to tie a child run to its node). */
  subgraphs: Readonly<Record<string, string>>;
}

/** What the view's reducer takes. */
export type GraphViewAction = { type: 'events'; events: readonly AgentEvent[] } | { type: 'finished'; status: string; message?: string } | { type: 'answered'; interruptId: string };

/** The longest streamed text kept per node (the view shows its last lines). */
export const ACTIVITY_TEXT_LIMIT = 4000;

/** A node's streamed text made safe to draw (escape sequences split over deltas removed too). */
export function activityText(activity: NodeActivity): string {
  return sanitizeForTerminal(activity.text);
}

/**
 * The state before any event: every node pending, except the top-level nodes of `history` (what
 * ran before a resumed or forked run: its checkpoint's `state.history`), done as often as listed.
 */
export function initialGraphView(graph: string, nodes: readonly DiagramNode[], history: readonly string[] = []): GraphViewState {
  const names: Record<string, Record<string, string>> = {};
  const subgraphs: Record<string, string> = {};
  for (const node of nodes) {
    // Members of a parallel group are named in their group's graph (the group's own prefix).
    const prefix = prefixOf(node, nodes);
    (names[prefix] ??= {})[node.name] = node.key;
    if (node.childGraph !== undefined) subgraphs[node.key] = node.childGraph;
  }
  const views: Record<string, NodeView> = Object.fromEntries(nodes.map((n) => [n.key, { status: 'pending', runs: 0 }]));
  for (const name of history) {
    const key = names['']?.[name];
    const view = key === undefined ? undefined : views[key];
    if (key !== undefined && view !== undefined) views[key] = { status: 'done', runs: view.runs + 1 };
  }
  return {
    graph,
    runId: undefined,
    nodes: views,
    order: nodes.map((n) => n.key),
    running: [],
    activity: {},
    tokens: 0,
    costUsd: 0,
    steps: 0,
    questions: [],
    outcome: undefined,
    childRuns: {},
    names,
    subgraphs,
  };
}

/** The prefix a node's name resolves under: its subgraph's (`review__`), or '' at the top and in top-level groups. */
function prefixOf(node: DiagramNode, nodes: readonly DiagramNode[]): string {
  let parent = node.parent === undefined ? undefined : nodes.find((n) => n.key === node.parent);
  while (parent !== undefined && parent.kind === 'parallel') parent = parent.parent === undefined ? undefined : nodes.find((n) => n.key === parent?.parent);
  return parent === undefined ? '' : `${parent.key}__`;
}

/** Folds events (and the run's end) into the view state. */
export function graphViewReducer(state: GraphViewState, action: GraphViewAction): GraphViewState {
  switch (action.type) {
    case 'finished': {
      // A node still running when the run stops (a group around an interrupted member, a node
      // cut short) takes the run's ending; a completed run has none left.
      const left: NodeStatus = action.status === 'interrupted' ? 'interrupted' : 'failed';
      const nodes = Object.fromEntries(Object.entries(state.nodes).map(([key, node]) => [key, node.status === 'running' ? { ...node, status: left } : node]));
      return { ...state, nodes, running: [], outcome: { status: action.status, ...(action.message === undefined ? {} : { message: sanitizeForTerminal(action.message) }) } };
    }
    case 'answered':
      // The run goes on with the answer.
      return { ...state, outcome: undefined, questions: state.questions.filter((q) => q.interruptId !== action.interruptId) };
    case 'events': {
      let next = state;
      for (const event of action.events) next = applyEvent(next, event);
      return next;
    }
  }
}

/** The key of node `name` of the graph run `runId` (undefined for a run the view does not draw). */
function keyOf(state: GraphViewState, runId: string, name: string): string | undefined {
  const prefix = runId === state.runId ? '' : state.childRuns[runId];
  return prefix === undefined ? undefined : state.names[prefix]?.[name];
}

function setNode(state: GraphViewState, key: string, change: Partial<NodeView>): GraphViewState {
  const current = state.nodes[key] ?? { status: 'pending', runs: 0 };
  return { ...state, nodes: { ...state.nodes, [key]: { ...current, ...change } } };
}

function withActivity(state: GraphViewState, key: string, change: (a: NodeActivity) => NodeActivity): GraphViewState {
  return { ...state, activity: { ...state.activity, [key]: change(state.activity[key] ?? { text: '', tools: [] }) } };
}

/** The node key a nested agent event belongs to (its `node` tag, looked up at every level). */
function agentNodeKey(state: GraphViewState, node: string): string | undefined {
  if (state.nodes[node] !== undefined) return node;
  for (const names of Object.values(state.names)) if (names[node] !== undefined) return names[node];
  return undefined;
}

function applyEvent(state: GraphViewState, event: AgentEvent): GraphViewState {
  switch (event.type) {
    case 'graph-start': {
      // A top-level run (the first, or the one resuming it after an answer: a new run id).
      if (event.parentRunId === undefined) return { ...state, runId: event.runId };
      if (event.runId === state.runId || state.childRuns[event.runId] !== undefined) return state;
      // A subgraph's run: it belongs to the running subgraph node of that child graph.
      const owner = state.running.find((key) => state.subgraphs[key] === event.graph);
      return owner === undefined ? state : { ...state, childRuns: { ...state.childRuns, [event.runId]: `${owner}__` } };
    }
    case 'node-start': {
      const key = keyOf(state, event.runId, event.node);
      if (key === undefined) return state;
      const next = setNode(state, key, { status: 'running' });
      return {
        ...next,
        running: [...state.running.filter((k) => k !== key), key],
        steps: event.runId === state.runId ? Math.max(state.steps, event.step) : state.steps,
        activity: { ...state.activity, [key]: { text: '', tools: [] } },
      };
    }
    case 'node-end': {
      const key = keyOf(state, event.runId, event.node);
      if (key === undefined) return state;
      const runs = (state.nodes[key]?.runs ?? 0) + 1;
      // A node that failed under ErrorPolicy SKIP ends too, but did not do its work.
      return { ...setNode(state, key, { status: event.skipped === undefined ? 'done' : 'skipped', runs, durationMs: event.durationMs }), running: state.running.filter((k) => k !== key) };
    }
    case 'graph-error': {
      const key = event.node === undefined ? undefined : keyOf(state, event.runId, event.node);
      if (key === undefined) return state;
      return { ...setNode(state, key, { status: 'failed' }), running: state.running.filter((k) => k !== key) };
    }
    case 'graph-interrupt': {
      const key = keyOf(state, event.runId, event.node);
      if (key === undefined) return state;
      const question: PendingQuestion = { interruptId: event.interruptId, node: key, prompt: sanitizeForTerminal(event.prompt) };
      return {
        ...setNode(state, key, { status: 'interrupted' }),
        running: state.running.filter((k) => k !== key),
        questions: [...state.questions.filter((q) => q.interruptId !== event.interruptId), question],
      };
    }
    case 'graph-resume': {
      const key = keyOf(state, event.runId, event.node);
      if (key === undefined) return state;
      return { ...setNode(state, key, { status: 'running' }), running: [...state.running.filter((k) => k !== key), key], questions: state.questions.filter((q) => q.interruptId !== event.interruptId) };
    }
    case 'usage':
      // Nested agent runs report each LLM call's usage once.
      return { ...state, tokens: state.tokens + event.usage.totalTokens, costUsd: state.costUsd + event.usage.costUsd };
    case 'text-delta': {
      const key = event.node === undefined ? undefined : agentNodeKey(state, event.node);
      if (key === undefined) return state;
      // Kept raw: an escape sequence may arrive split over deltas (activityText cleans the whole).
      return withActivity(state, key, (a) => ({ ...a, text: (a.text + event.text).slice(-ACTIVITY_TEXT_LIMIT) }));
    }
    case 'tool-start': {
      const key = event.node === undefined ? undefined : agentNodeKey(state, event.node);
      if (key === undefined) return state;
      const card: ToolCard = { callId: event.callId, toolName: sanitizeForTerminal(event.toolName), args: event.args, status: 'running', startedAt: event.timestamp };
      return withActivity(state, key, (a) => ({ ...a, tools: [...a.tools.filter((t) => t.callId !== event.callId), card] }));
    }
    case 'tool-end':
    case 'tool-error': {
      const key = event.node === undefined ? undefined : agentNodeKey(state, event.node);
      if (key === undefined) return state;
      const output = sanitizeForTerminal(event.type === 'tool-end' ? event.result : event.error.message);
      const status = event.type === 'tool-end' ? 'success' : 'error';
      return withActivity(state, key, (a) => ({
        ...a,
        tools: a.tools.some((t) => t.callId === event.callId)
          ? a.tools.map((t) => (t.callId === event.callId ? { ...t, status, output, durationMs: event.durationMs } : t))
          : [...a.tools, { callId: event.callId, toolName: sanitizeForTerminal(event.toolName), args: event.args, status, output, durationMs: event.durationMs }],
      }));
    }
    default:
      return state;
  }
}
