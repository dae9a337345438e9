/** The chat view's state: plain data, built from AgentEvents by `chatReducer` (no agent logic). */
import type { ParagraphScan } from './paragraph-scan.js';

/** Lines of tool output shown on a card before it is cut (Ctrl+O prints the whole output). */
export const TOOL_OUTPUT_LINES = 3;

/** A tool card's status: ⊷ running, ? awaiting approval, ✓ success, x error (or denied). */
export type ToolStatus = 'pending' | 'approval' | 'running' | 'success' | 'error' | 'denied';

/** One tool call as the chat shows it. */
export interface ToolCard {
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
  status: ToolStatus;
  /** The result (success), the error message (error) or the denial feedback (denied). */
  output?: string;
  durationMs?: number;
  startedAt?: number;
  /** The approval timeout announced by `approval-request` (0: none). */
  timeoutMs?: number;
}

/**
 * A piece of the answer: text, or a tool card (by call id). `scan` remembers how far the text
 * has been searched for paragraph breaks (so a long open paragraph is not read again per delta).
 */
export type Segment = { kind: 'text'; text: string; scan?: ParagraphScan } | { kind: 'tool'; callId: string };

/** Something printed once, above the live region (rendered in Ink's `<Static>`). */
export type FinishedItem =
  | { id: number; kind: 'user'; text: string }
  /** `gap`: a blank line follows (the paragraph was committed while streaming). */
  | { id: number; kind: 'text'; text: string; gap?: boolean }
  | { id: number; kind: 'tool'; card: ToolCard }
  | { id: number; kind: 'notice'; text: string; tone: 'info' | 'warn' | 'error' }
  | { id: number; kind: 'turn-end'; status: string; durationMs: number; tokens: number; costUsd: number };

/** The turn being streamed: only its unfinished tail is in the live region. */
export interface LiveTurn {
  /**
   * The turn's own run: the first `run-start` of the turn. Events of other runs (sub-agents) are
   * nested runs and show in the trace pane only — whether or not this run has a parent of its own
   * (`trace.parent_run_id`).
   */
  runId: string | undefined;
  /** Segments not yet moved to the static transcript. */
  segments: Segment[];
  tools: Record<string, ToolCard>;
  iteration: number;
  startedAt: number;
  /** Session totals when the turn began (the turn's own tokens and cost are the difference). */
  tokensAtStart: number;
  costAtStart: number;
  /** An `error` event of the run was already printed (the turn's end does not print it again). */
  errorShown?: boolean;
}

/** An approval the user has to answer; the queue is answered in order. */
export interface PendingApproval {
  /** Unique per request (approval ids are not call ids: a call may be asked about once only, but keep them apart). */
  id: number;
  callId: string;
  toolName: string;
  args: Record<string, unknown>;
  reason: string;
  requestedAt: number;
  /** 0: no timeout. */
  timeoutMs: number;
}

/** The status of a live trace row: ⊷ running, ✓ ok, ! stopped (cut short), x error. */
export type TraceRowStatus = 'running' | 'ok' | 'stopped' | 'error';

/** One row of the live trace pane. */
export interface TraceRow {
  key: string;
  depth: number;
  label: string;
  /** `stopped`: cut short (a cancelled run, max iterations, budget exceeded; see `runOutcome`). */
  status: TraceRowStatus;
  durationMs?: number;
  detail?: string;
}

/** Session totals for the footer and /cost. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number;
  llmCalls: number;
  /** Prompt tokens of the last provider call: the context fill estimate. */
  lastPromptTokens: number;
}

/** The whole chat state. */
export interface ChatState {
  /**
   * Finished items not yet known to be printed. `<Static>` prints each item once; the printed
   * ones are dropped (`printed` action) so memory stays bounded however long the chat runs.
   */
  finished: FinishedItem[];
  /** Bumped whenever printed items are dropped: the transcript's `<Static>` starts over (its key). */
  transcriptEpoch: number;
  /** The last finished tool card whose output was cut (Ctrl+O prints it in full). */
  lastCutTool: ToolCard | undefined;
  live: LiveTurn | undefined;
  approvals: PendingApproval[];
  usage: ChatUsage;
  /** The model of the last call (or the agent's). */
  model: string;
  traceRows: TraceRow[];
  traceVisible: boolean;
  nextId: number;
}

export const EMPTY_USAGE: ChatUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, llmCalls: 0, lastPromptTokens: 0 };

/** A fresh chat. */
export function initialChatState(model: string): ChatState {
  return {
    finished: [],
    transcriptEpoch: 0,
    lastCutTool: undefined,
    live: undefined,
    approvals: [],
    usage: { ...EMPTY_USAGE },
    model,
    traceRows: [],
    traceVisible: false,
    nextId: 1,
  };
}
