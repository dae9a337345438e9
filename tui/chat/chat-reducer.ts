import type { AgentEvent } from '../../lib/events/types.js';
import type { ChatState, FinishedItem, LiveTurn, PendingApproval, Segment, ToolCard } from './chat-state.js';
import { EMPTY_USAGE, TOOL_OUTPUT_LINES } from './chat-state.js';
import { reduceTraceRows } from './chat-trace-rows.js';
import { scanParagraphs, splitScanned } from './paragraph-scan.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import { formatCost } from './chat-format.js';

/** What changes the chat state: batches of agent events, plus the few things the UI itself does. */
export type ChatAction =
  | { type: 'turn-start'; prompt: string; now: number }
  | { type: 'events'; events: readonly AgentEvent[] }
  | { type: 'turn-finish'; status: string; now: number; error?: string }
  | { type: 'notice'; text: string; tone?: 'info' | 'warn' | 'error' }
  | { type: 'approval-enqueue'; approval: Omit<PendingApproval, 'id' | 'timeoutMs'> & { timeoutMs?: number } }
  | { type: 'approval-resolve'; callId: string }
  | { type: 'toggle-trace' }
  | { type: 'reset' }
  | { type: 'set-model'; model: string }
  /** The transcript printed every finished item up to this id: they can be dropped. */
  | { type: 'printed'; throughId: number };

type Draft = Omit<ChatState, 'finished'> & { finished: FinishedItem[] };

/** Pure: the next chat state. Finished parts of a turn move to `finished` (Ink `<Static>`) as soon as they are complete. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'turn-start': {
      const draft = copy(state);
      push(draft, { kind: 'user', text: action.prompt });
      draft.live = { runId: undefined, segments: [], tools: {}, iteration: 0, startedAt: action.now, tokensAtStart: state.usage.totalTokens, costAtStart: state.usage.costUsd };
      draft.traceRows = [];
      return draft;
    }
    case 'events': {
      const draft = copy(state);
      for (const event of action.events) applyEvent(draft, event);
      draft.traceRows = reduceTraceRows(state.traceRows, action.events, draft.live?.runId);
      if (draft.live) commit(draft, draft.live, false);
      return draft;
    }
    case 'turn-finish': {
      if (!state.live) return state;
      const draft = copy(state);
      const live = draft.live as LiveTurn;
      // Calls still open when the run stopped (cancelled, failed) end as errors.
      for (const card of Object.values(live.tools)) {
        if (card.status === 'running' || card.status === 'pending' || card.status === 'approval') {
          live.tools[card.callId] = { ...card, status: 'error', output: card.output ?? action.status };
        }
      }
      commit(draft, live, true);
      // The run's `error` event already printed the error: once is enough.
      if (action.error !== undefined && live.errorShown !== true) push(draft, { kind: 'notice', text: action.error, tone: 'error' });
      push(draft, {
        kind: 'turn-end',
        status: action.status,
        durationMs: Math.max(0, action.now - live.startedAt),
        tokens: draft.usage.totalTokens - live.tokensAtStart,
        costUsd: draft.usage.costUsd - live.costAtStart,
      });
      draft.live = undefined;
      draft.approvals = [];
      return draft;
    }
    case 'notice': {
      const draft = copy(state);
      push(draft, { kind: 'notice', text: action.text, tone: action.tone ?? 'info' });
      return draft;
    }
    case 'approval-enqueue': {
      const draft = copy(state);
      const card = draft.live?.tools[action.approval.callId];
      const approval: PendingApproval = { ...action.approval, id: draft.nextId++, timeoutMs: action.approval.timeoutMs ?? card?.timeoutMs ?? 0 };
      draft.approvals = [...state.approvals, approval];
      return draft;
    }
    case 'approval-resolve':
      return { ...state, approvals: state.approvals.filter((a) => a.callId !== action.callId) };
    case 'toggle-trace':
      return { ...state, traceVisible: !state.traceVisible };
    case 'reset':
      return { ...state, usage: { ...EMPTY_USAGE }, traceRows: [] };
    case 'set-model':
      return { ...state, model: action.model };
    case 'printed': {
      const kept = state.finished.filter((item) => item.id > action.throughId);
      if (kept.length === state.finished.length) return state;
      // A new <Static> (new key) prints what is left, which was not printed yet.
      return { ...state, finished: kept, transcriptEpoch: state.transcriptEpoch + 1 };
    }
  }
}

function copy(state: ChatState): Draft {
  return { ...state, finished: state.finished, usage: { ...state.usage } };
}

function push(draft: Draft, item: DistributiveOmit<FinishedItem, 'id'>): void {
  const safe = item.kind === 'notice' ? { ...item, text: sanitizeForTerminal(item.text) } : item;
  draft.finished = [...draft.finished, { ...safe, id: draft.nextId++ }];
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function cloneLive(draft: Draft): LiveTurn | undefined {
  if (!draft.live) return undefined;
  const live: LiveTurn = { ...draft.live, segments: [...draft.live.segments], tools: { ...draft.live.tools } };
  draft.live = live;
  return live;
}

function setCard(live: LiveTurn, callId: string, toolName: string, args: Record<string, unknown>, patch: Partial<ToolCard>): void {
  const existing = live.tools[callId];
  if (!existing) live.segments.push({ kind: 'tool', callId });
  // Tool output (and a model-chosen tool name) is untrusted: sanitised before it is drawn.
  if (patch.output !== undefined) patch.output = sanitizeForTerminal(patch.output);
  live.tools[callId] = { ...(existing ?? { callId, toolName: sanitizeForTerminal(toolName), args, status: 'pending' }), ...patch };
}

/**
 * Whether `event` belongs to a nested run (a sub-agent): a run other than the turn's own run,
 * which is the first run to start in the turn. Its own `parentRunId` does not matter (an agent
 * whose traces link to a parent run still shows). Outside a turn, `parentRunId` decides.
 */
function isNested(draft: Draft, event: AgentEvent): boolean {
  const live = draft.live;
  if (live === undefined) return event.parentRunId !== undefined;
  if (live.runId === undefined) {
    if (event.type === 'run-start') (cloneLive(draft) as LiveTurn).runId = event.runId;
    return false;
  }
  return event.runId !== live.runId;
}

function applyEvent(draft: Draft, event: AgentEvent): void {
  if (isNested(draft, event)) return; // nested runs (sub-agents) show in the trace pane only
  if (event.type === 'usage') {
    draft.usage.promptTokens += event.usage.promptTokens;
    draft.usage.completionTokens += event.usage.completionTokens;
    draft.usage.totalTokens += event.usage.totalTokens;
    draft.usage.costUsd += event.usage.costUsd;
    draft.usage.llmCalls += 1;
    draft.usage.lastPromptTokens = event.usage.promptTokens;
    return;
  }
  if (event.type === 'llm-start' || event.type === 'llm-end') draft.model = event.model;
  const live = cloneLive(draft);
  if (!live) return;
  switch (event.type) {
    case 'run-start':
      live.runId = event.runId;
      break;
    case 'iteration-start':
      live.iteration = event.iteration;
      break;
    case 'text-delta': {
      const last = live.segments.at(-1);
      // Model output never drives the terminal: escape sequences and controls are dropped here.
      const text = sanitizeForTerminal(event.text);
      // The scan of the text so far stays valid: the text only grows.
      if (last?.kind === 'text') live.segments[live.segments.length - 1] = { ...last, text: last.text + text };
      else live.segments.push({ kind: 'text', text });
      break;
    }
    case 'policy-decision':
      if (event.decision === 'deny') setCard(live, event.callId, event.toolName, event.args, { status: 'denied', output: event.reason });
      else if (event.decision === 'review') setCard(live, event.callId, event.toolName, event.args, { status: 'approval' });
      break;
    case 'approval-request':
      setCard(live, event.callId, event.toolName, event.args, { status: 'approval', timeoutMs: event.timeoutMs });
      draft.approvals = draft.approvals.map((a) => (a.callId === event.callId ? { ...a, timeoutMs: event.timeoutMs } : a));
      break;
    case 'approval-response':
      if (!event.approved) {
        setCard(live, event.callId, event.toolName, {}, {
          status: 'denied',
          output: event.outcome === 'timeout' ? 'approval timed out' : event.feedback !== undefined && event.feedback !== '' ? `denied: ${event.feedback}` : 'denied',
        });
      } else setCard(live, event.callId, event.toolName, {}, { status: 'pending' });
      draft.approvals = draft.approvals.filter((a) => a.callId !== event.callId);
      break;
    case 'tool-start':
      setCard(live, event.callId, event.toolName, event.args, { status: 'running', startedAt: event.timestamp, args: event.args });
      break;
    case 'tool-end':
      setCard(live, event.callId, event.toolName, event.args, { status: 'success', output: event.result, durationMs: event.durationMs });
      break;
    case 'tool-error':
      setCard(live, event.callId, event.toolName, event.args, { status: 'error', output: event.error.message, durationMs: event.durationMs });
      break;
    case 'coherence-blocked':
      setCard(live, event.callId, event.toolName, {}, { status: 'denied', output: `blocked: ${event.reason}` });
      break;
    case 'error':
      if (event.stage !== 'tool') {
        push(draft, { kind: 'notice', text: `${event.error.name}: ${event.error.message}`, tone: 'error' });
        live.errorShown = true;
      }
      break;
    case 'llm-retry':
      push(draft, { kind: 'notice', text: `retrying ${event.provider} (attempt ${event.attempt}): ${event.error.message}`, tone: 'warn' });
      break;
    case 'budget-exceeded':
    case 'cost-warning':
    case 'guardrail-triggered':
    case 'model-switch':
      push(draft, { kind: 'notice', text: noticeText(event), tone: 'warn' });
      break;
    default:
      break;
  }
}

function noticeText(event: AgentEvent): string {
  switch (event.type) {
    case 'budget-exceeded':
      return `budget exceeded: ${event.kind} ${event.actual} > ${event.limit}`;
    case 'cost-warning':
      return `cost passed $${event.threshold} (${formatCost(event.costUsd)})`;
    case 'guardrail-triggered':
      return `guardrail ${event.guardrail} (${event.stage}${event.toolName === undefined ? '' : ` of ${event.toolName}`}): ${event.action} — ${event.reason}`;
    case 'model-switch':
      return `model ${event.from} → ${event.to}`;
    default:
      return event.type;
  }
}

const FINAL: ReadonlySet<string> = new Set(['success', 'error', 'denied']);

/** Whether a card's output is longer than a card shows (Ctrl+O prints it in full). */
function isCut(card: ToolCard): boolean {
  return card.output !== undefined && card.output.trimEnd().split('\n').length > TOOL_OUTPUT_LINES;
}

/**
 * Moves the finished prefix of the live turn into the static transcript: text followed by
 * something else, complete paragraphs of the streaming text (outside code fences), and tool
 * cards that reached a final status. With `all`, everything moves (the turn ended). The open
 * paragraph is scanned from where the last scan stopped (see paragraph-scan.ts).
 */
function commit(draft: Draft, live: LiveTurn, all: boolean): void {
  const segments = [...live.segments];
  const tools = { ...live.tools };
  const out: DistributiveOmit<FinishedItem, 'id'>[] = [];
  let changed = false;
  while (segments.length > 0) {
    const first = segments[0] as Segment;
    if (first.kind === 'tool') {
      const card = tools[first.callId] as ToolCard;
      if (!all && !FINAL.has(card.status)) break;
      out.push({ kind: 'tool', card });
      if (isCut(card)) draft.lastCutTool = card;
      delete tools[first.callId];
      segments.shift();
      continue;
    }
    if (all || segments.length > 1) {
      if (first.text.trim() !== '') out.push({ kind: 'text', text: first.text.trimEnd() });
      segments.shift();
      continue;
    }
    const scanned = scanParagraphs(first.text, first.scan);
    const { done, rest, scan } = splitScanned(first.text, scanned);
    if (done !== '') out.push({ kind: 'text', text: done, gap: true });
    segments[0] = { kind: 'text', text: rest, scan };
    changed = true;
    break;
  }
  if (out.length === 0 && !changed) return;
  draft.live = { ...live, segments, tools };
  if (out.length > 0) draft.finished = [...draft.finished, ...out.map((item) => ({ ...item, id: draft.nextId++ }))];
}

/**
 * Splits streaming text into complete paragraphs (up to the last blank line outside a code
 * fence) and the rest still being written. `['', text]` when nothing is complete yet. (The
 * reducer scans incrementally instead: paragraph-scan.ts.)
 */
export function splitCompleteParagraphs(text: string): [string, string] {
  const { done, rest } = splitScanned(text, scanParagraphs(text));
  return [done, rest];
}
