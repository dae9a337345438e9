import type { Message } from '../core/message.js';
import type { ToolCall } from '../core/tool-call.js';
import type { AgentUsage } from '../core/usage.js';
import type { AgentEventPayloads, AgentEventType } from '../events/types.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import type { NestedRunSink, Tool } from '../tools/types.js';
import type { ResolvedAgentConfig } from './config.js';
import type { ExtensionContext } from './extension.js';
import type { PreparedResponseFormat } from './structured-output.js';
import type { ApprovalHandler } from './types.js';

/** Emits one event of a run: fills runId/timestamp, feeds the trace, the stream and the observers. */
export type Emit = <T extends AgentEventType>(type: T, payload: AgentEventPayloads[T]) => void | Promise<void>;

/** Emits a `text-delta` or `reasoning-delta` event: the per-chunk fast path of `Emit`. */
export type EmitDelta = (type: 'text-delta' | 'reasoning-delta', iteration: number, text: string) => void | Promise<void>;

/** Everything one run works with. Created per run; never shared between runs. */
export interface RunState {
  readonly runId: string;
  readonly config: ResolvedAgentConfig;
  /** Tools by name, as they were when the run started. */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolSpecs: readonly ProviderToolSpec[];
  readonly systemPrompt: string;
  /** Aborted on cancellation (token, run signal, or the stream consumer leaving). */
  readonly signal: AbortSignal;
  readonly streaming: boolean;
  responseFormat: PreparedResponseFormat | undefined;
  readonly approve: ApprovalHandler | undefined;
  readonly context: unknown;
  /** Tools the user approved "for this session" (shared with the agent until reset()). */
  readonly sessionApprovals: Set<string>;
  readonly emit: Emit;
  readonly emitDelta: EmitDelta;
  /** Where runs nested in a tool call (agents as tools) send their events and usage. */
  readonly nested: NestedRunSink;
  readonly extensionContext: ExtensionContext;
  /** The working conversation: history plus what this run added. */
  messages: Message[];
  usage: AgentUsage;
  toolCalls: ToolCall[];
  reasoningHistory: string[];
  iteration: number;
  model: string;
  providerUsed: string;
  costWarned: boolean;
}
