import type { Message } from '../core/message.js';
import type { Role } from '../core/role.js';
import type { ToolCall } from '../core/tool-call.js';
import type { AgentUsage, AgentUsageJSON } from '../core/usage.js';
import type { SerializedError } from '../events/serialized-error.js';
import type { RunStatus } from '../events/types.js';
import type { AgentTrace } from '../trace/agent-trace.js';

/** Fields of an AgentResult. */
export interface AgentResultInit<P = unknown> {
  runId: string;
  status: RunStatus;
  message: Message;
  iterations: number;
  toolCalls: ToolCall[];
  usage: AgentUsage;
  parsed?: P;
  reasoning?: string;
  reasoningHistory: string[];
  trace: AgentTrace;
  providerUsed: string;
  model: string;
  durationMs: number;
  error?: SerializedError;
}

/** The outcome of a run. `content` and `role` are shortcuts of `message`. */
export class AgentResult<P = unknown> {
  readonly runId: string;
  /** How the run ended (`completed`, `max-iterations`, `budget-exceeded`, `cancelled`, …). */
  readonly status: RunStatus;
  /** The final message. */
  readonly message: Message;
  /** Loop iterations used. */
  readonly iterations: number;
  /** Every tool call made in the run, in order. */
  readonly toolCalls: readonly ToolCall[];
  /** Usage aggregated over the run. */
  readonly usage: AgentUsage;
  /** The validated structured output when a responseFormat was given. */
  readonly parsed: P | undefined;
  /** What the model said alongside its last tool selection (no extra call). */
  readonly reasoning: string | undefined;
  /** Reasoning text, one entry per iteration. */
  readonly reasoningHistory: readonly string[];
  /** The run's trace; always populated. */
  readonly trace: AgentTrace;
  /** Which provider answered (the fallback provider reports the one that succeeded). */
  readonly providerUsed: string;
  /** The model of the last LLM call. */
  readonly model: string;
  readonly durationMs: number;
  /** Set when the run failed (batch items keep failures as results). */
  readonly error: SerializedError | undefined;

  constructor(init: AgentResultInit<P>) {
    this.runId = init.runId;
    this.status = init.status;
    this.message = init.message;
    this.iterations = init.iterations;
    this.toolCalls = init.toolCalls;
    this.usage = init.usage;
    this.parsed = init.parsed;
    this.reasoning = init.reasoning;
    this.reasoningHistory = init.reasoningHistory;
    this.trace = init.trace;
    this.providerUsed = init.providerUsed;
    this.model = init.model;
    this.durationMs = init.durationMs;
    this.error = init.error;
  }

  /** The final message's text. */
  get content(): string {
    return this.message.content;
  }

  /** The final message's role. */
  get role(): Role {
    return this.message.role;
  }

  /** The last tool called, if any. */
  get toolName(): string | undefined {
    return this.toolCalls.at(-1)?.toolName;
  }

  /** The parameters of the last tool call, if any. */
  get toolArgs(): Record<string, unknown> | undefined {
    return this.toolCalls.at(-1)?.parameters;
  }

  toString(): string {
    return this.content;
  }

  toJSON(): AgentResultJSON {
    const json: AgentResultJSON = {
      runId: this.runId,
      status: this.status,
      content: this.content,
      role: this.role,
      iterations: this.iterations,
      toolCalls: [...this.toolCalls],
      usage: this.usage.toJSON(),
      reasoningHistory: [...this.reasoningHistory],
      providerUsed: this.providerUsed,
      model: this.model,
      durationMs: this.durationMs,
    };
    if (this.parsed !== undefined) json.parsed = this.parsed;
    if (this.reasoning !== undefined) json.reasoning = this.reasoning;
    if (this.error !== undefined) json.error = this.error;
    return json;
  }
}

/** The JSON form of an AgentResult (the trace is written separately). */
export interface AgentResultJSON {
  runId: string;
  status: RunStatus;
  content: string;
  role: Role;
  iterations: number;
  toolCalls: ToolCall[];
  usage: AgentUsageJSON;
  parsed?: unknown;
  reasoning?: string;
  reasoningHistory: string[];
  providerUsed: string;
  model: string;
  durationMs: number;
  error?: SerializedError;
}
