import type { Message } from '../core/message.js';
import type { ToolCall } from '../core/tool-call.js';
import type { AgentUsage } from '../core/usage.js';
import type { AgentEventPayloads, AgentEventType } from '../events/types.js';

/** What an extension is told about the tool whose output it sees. */
export interface ToolFlags {
  readonly name: string;
  /** The tool was defined with `screenOutput: true`. */
  readonly screenOutput: boolean;
}

/** What an extension sees of the run it is part of. */
export interface ExtensionContext {
  runId: string;
  agentName: string;
  signal: AbortSignal;
  usage: AgentUsage;
  /**
   * True when the run continues the agent's conversation (`run`, `stream`); false for `ask` and
   * `batch`, which neither read nor change it (memory and session extensions stay out of those).
   */
  conversation: boolean;
  /** Emits an event on the run's stream (memory, guardrail, screening events). */
  emit<T extends AgentEventType>(type: T, payload: AgentEventPayloads[T]): Promise<void>;
}

/**
 * Hook points of the agent loop. Memory, sessions, guardrails, output screening, coherence checks
 * and prompt compression are extensions; each hook is optional and awaited in order.
 */
export interface AgentExtension {
  readonly name: string;
  /** Before the first LLM call: may replace the working history (session load, memory injection). */
  beforeRun?(ctx: ExtensionContext, messages: Message[]): Promise<Message[] | undefined> | Message[] | undefined;
  /** Checks or rewrites the user's input text (input guardrails); throw GuardrailError to block. */
  checkInput?(ctx: ExtensionContext, text: string): Promise<string> | string;
  /** Before each LLM call: may rewrite the per-call messages (compression). Never changes memory. */
  beforeModel?(ctx: ExtensionContext, messages: readonly Message[]): Promise<readonly Message[] | undefined> | readonly Message[] | undefined;
  /** Before a tool runs: return a reason string to block the call (coherence check). */
  beforeTool?(ctx: ExtensionContext, call: ToolCall): Promise<string | undefined> | string | undefined;
  /**
   * After a tool ran: may rewrite its output before the model sees it (screening, tool-result
   * guardrails). `tool` tells the tool's own flags (`screenOutput`).
   */
  afterTool?(ctx: ExtensionContext, call: ToolCall, output: string, tool?: ToolFlags): Promise<string> | string;
  /** Checks or rewrites the final answer (output guardrails); throw GuardrailError to block. */
  checkOutput?(ctx: ExtensionContext, text: string): Promise<string> | string;
  /** After the run: the messages this run added (session save, entity extraction). */
  afterRun?(ctx: ExtensionContext, added: readonly Message[], finalContent: string): Promise<void> | void;
}
