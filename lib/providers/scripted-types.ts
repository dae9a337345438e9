import type { ToolCall } from '../core/tool-call.js';
import type { FinishReason, ProviderCapabilities, ProviderRequest, ProviderUsage } from './spec.js';

/**
 * A tool call in a scripted reply: a ToolCall whose `id` defaults to `call_<n>` (deterministic).
 * Every other ToolCall field (`thoughtSignature`, `argumentsError`, …) is passed through.
 */
export interface ScriptedToolCall extends Omit<ToolCall, 'id'> {
  id?: string;
}

/** A scripted reply spelled out. */
export interface ScriptedReplyObject {
  /** Answer text (default `''`, or the joined `chunks`). */
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Reasoning text, returned apart from the answer (streamed as reasoning deltas). */
  reasoning?: string;
  /** Token usage; default: the provider's `usage` option, else chars / 4 of request and reply. */
  usage?: ProviderUsage;
  /** Default: `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: FinishReason;
  /** Wait this long before replying (aborts promptly with the request's signal). */
  delayMs?: number;
  /** Wait this long before each streamed text delta. */
  chunkDelayMs?: number;
  /** Thrown instead of replying (in a stream: after `errorAfterChunks` text deltas, if set). */
  error?: unknown;
  /** Streams only: emit this many text deltas, then throw `error` (a ProviderError by default). */
  errorAfterChunks?: number;
  /** Text deltas to stream; default: the text split into ~4-character pieces. */
  chunks?: string[];
  /** The model the reply claims to come from (default: the request's model). */
  model?: string;
}

/** A reply: plain text, or a spelled-out reply. */
export type ScriptedReply = string | ScriptedReplyObject;

/** Computes a reply for a request (`index` is the 0-based request number). */
export type ScriptedResponder = (request: ProviderRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

/** Options of `ScriptedProvider`. */
export interface ScriptedProviderOptions {
  /** Replies handed out in order, one per `complete`/`stream` call. */
  replies?: readonly ScriptedReply[];
  /** Computes replies once the `replies` list is used up (or when none were given). */
  respond?: ScriptedResponder;
  /** Start over at the first reply when the list is used up (benchmarks). Default false. */
  loop?: boolean;
  /** Provider name. Default `scripted`. */
  name?: string;
  /** Default model. Default `scripted-model`. */
  defaultModel?: string;
  /** Capability overrides; every capability defaults to true. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Delay before every reply, unless the reply sets its own. */
  delayMs?: number;
  /** Usage for replies that do not set their own (default: chars / 4 estimates). */
  usage?: ProviderUsage;
  /** Record each request in `requests` (a structured clone). Default true; false for benchmarks. */
  record?: boolean;
  /** Vector size of `embed` when the request names none. Default 64. */
  embeddingDimensions?: number;
}
