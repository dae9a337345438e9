import type { SerializedError } from '../events/serialized-error.js';
import type { StepType } from './step-type.js';

/** Whether a step succeeded. Control-flow markers (budget, cancel, retry) are `ok`; failures are `error`. */
export type StepStatus = 'ok' | 'error';

/** Token counts of one step (an LLM call, or a cache hit whose usage is still counted). */
export interface TraceUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  reasoningTokens?: number;
  cachedPromptTokens?: number;
}

/** A tool call of an assistant message in a step's message view. */
export interface TraceToolCall {
  name: string;
  /**
   * The arguments as compact JSON with the values of secret-looking keys replaced by `[REDACTED]`
   * (see `argsSummary`), cut to `toolResultChars` like the message text.
   */
  args: string;
}

/**
 * One message of an `llm_call` step's message view: the run's user message, what followed the
 * previous call (its reply with the tool calls, the tool results) and the call's own reply. Text is
 * cut to `toolResultChars` (the cut marked); tool arguments are redacted like a tool_execution's.
 */
export interface TraceMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** The tool a `tool` message is the result of. */
  name?: string;
  /** A `tool` message reports a failed call. */
  isError?: boolean;
  /** The tool calls of an `assistant` message. */
  toolCalls?: TraceToolCall[];
}

/** One step of a run. Plain JSON; one line of a trace JSONL file. */
export interface TraceStep {
  /** Unique within its trace. */
  id: string;
  /** The enclosing step (a tool_selection's llm_call, a tool_execution's tool_selection, …). */
  parentId?: string;
  /** The run the step belongs to (a nested run's own id for its steps). */
  runId: string;
  type: StepType;
  /** Tool name, node name or model, depending on the type. */
  name?: string;
  /** Start, in milliseconds since the epoch. */
  startedAt: number;
  /** `startedAt` as an ISO 8601 string. */
  timestamp: string;
  durationMs: number;
  /** Short summary of the input (tool args as JSON, message counts, …). */
  input?: string;
  /**
   * The messages of an `llm_call` (see TraceMessage): a capped, redacted view, not the whole
   * conversation (`input` gives the counts). Absent in traces written before it was recorded.
   */
  messages?: TraceMessage[];
  /** Short summary of the output (answer text, tool result, possibly truncated). */
  output?: string;
  usage?: TraceUsage;
  /** Cost in USD (llm_call steps). */
  costUsd?: number;
  /** The model's reasoning (tool_selection steps). */
  reasoning?: string;
  error?: SerializedError;
  status: StepStatus;
  metadata?: Record<string, unknown>;
}

/** What run-start / run-end (or graph-start / graph-end) say about a run. */
export interface RunSummaryFields {
  /** Agent (or graph) name. */
  agentName?: string;
  provider?: string;
  model?: string;
  /** Run input summary. */
  input?: string;
  /** Final answer summary. */
  output?: string;
  startedAt?: number;
  endedAt?: number;
  /** How the run ended (a RunStatus, or `interrupted` / `completed` for graphs). */
  status?: string;
}

/** A run nested in a traced run (a graph node's agent, a sub-agent called as a tool). */
export interface NestedRunInfo extends Omit<RunSummaryFields, 'input' | 'output'> {
  runId: string;
  parentRunId: string;
  /** The step of the parent run the nested run ran under (graph node start or tool execution), when known. */
  parentStepId?: string;
}

/** What is known about the traced run itself (filled from run-start / run-end or graph-start / graph-end). */
export interface TraceRunFields extends RunSummaryFields {
  runId: string;
  parentRunId?: string;
  /**
   * True when the trace ends early: a file written step by step whose run never finished it (killed,
   * or still running), or whose last line was cut off. The steps are those written so far.
   */
  incomplete?: boolean;
  metadata: Record<string, unknown>;
  nestedRuns: NestedRunInfo[];
}

/** The JSON form of an AgentTrace (`toJSON()`); version 1. */
export interface AgentTraceJSON extends TraceRunFields {
  version: 1;
  steps: TraceStep[];
}

/** The header line of a trace JSONL file. */
export interface TraceHeader extends TraceRunFields {
  type: 'trace';
  version: 1;
}

/** The trace format version this library writes and reads. */
export const TRACE_VERSION = 1;
