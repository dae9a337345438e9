import type { JsonSchema } from '../core/json.js';
import type { Message } from '../core/message.js';
import type { ReasoningPart } from '../core/reasoning-part.js';
import type { ToolCall } from '../core/tool-call.js';

/** A tool as the provider sees it: a name, a description and a JSON Schema of its parameters. */
export interface ProviderToolSpec {
  name: string;
  description: string;
  /** JSON Schema of an object (`type: 'object'`, `properties`, `required`). */
  parameters: JsonSchema;
}

/** How the model may use tools: let it choose, forbid, require some tool, or require one tool. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; toolName: string };

/** Requested structured output: a JSON Schema the reply must match. */
export interface ResponseFormatSpec {
  type: 'json_schema';
  /** A short identifier for the schema (providers require one). */
  name: string;
  schema: JsonSchema;
  description?: string;
}

/** One request to a provider. */
export interface ProviderRequest {
  model: string;
  /** System prompt, kept apart from `messages` (providers place it where their API wants it). */
  system?: string;
  messages: readonly Message[];
  tools?: readonly ProviderToolSpec[];
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
  responseFormat?: ResponseFormatSpec;
  /** Aborts the call (cancellation, timeouts). */
  signal?: AbortSignal;
  /** Receives retry and fallback notices; the agent turns them into `llm-retry` / `provider-fallback` events. */
  onNotice?: (notice: ProviderNotice) => void;
}

/** Something a provider wrapper wants the run to know about while a call is in flight. */
export type ProviderNotice =
  | { type: 'llm-retry'; provider: string; attempt: number; delayMs: number; error: unknown }
  | { type: 'provider-fallback'; from: string; to: string; error: unknown };

/** Token counts a provider reports; cost is filled in from the model registry when omitted. */
export interface ProviderUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens?: number;
  /** Cost in USD when the adapter knows it; otherwise the agent prices it from the model registry. */
  costUsd?: number;
  reasoningTokens?: number;
  cachedPromptTokens?: number;
}

/** Why a reply ended. */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'refusal' | 'error' | 'other';

/** The reply of `complete`. */
export interface ProviderResponse {
  /**
   * The assistant message (content `''` when the provider sent none; tool calls assembled; opaque
   * reasoning blocks / signatures the provider needs back on `reasoningParts`).
   */
  message: Message;
  /** Token counts; omitted when the API reported none (the agent then estimates them). */
  usage?: ProviderUsage;
  finishReason: FinishReason;
  /** Reasoning / thinking text, kept out of the answer. */
  reasoning?: string;
  /** The model id the provider reports having used. */
  model?: string;
  /** The provider's request id. */
  requestId?: string;
  /** Which provider answered, when this one wraps others (fallback). */
  provider?: string;
}

/** One part of a streamed reply. */
export type StreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /**
   * A whole opaque reasoning block or signature (see ReasoningPart), yielded once it is complete;
   * the agent puts it on the assistant message. Its readable text (if any) was streamed as
   * `reasoning-delta` already: this part is not output.
   */
  | { type: 'reasoning-part'; part: ReasoningPart }
  /** A whole tool call, assembled by the adapter from its deltas. */
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'usage'; usage: ProviderUsage }
  | { type: 'finish'; finishReason: FinishReason; model?: string; requestId?: string; provider?: string };

/** An embeddings request. */
export interface EmbedRequest {
  model?: string;
  texts: readonly string[];
  /** Provider-specific hint, e.g. Gemini's task type. */
  taskType?: string;
  dimensions?: number;
  signal?: AbortSignal;
  /**
   * Receives retry and fallback notices: `provider-fallback` from a FallbackProvider that moved to
   * its next entry, `llm-retry` from `embedWithRetry` before each sleep.
   */
  onNotice?: (notice: ProviderNotice) => void;
}

/** An embeddings reply: one vector per input text, in input order. */
export interface EmbedResponse {
  embeddings: number[][];
  /** Tokens embedded and their cost; `estimated` when the API reported no count (chars / 4). */
  usage: EmbedUsage;
  model: string;
}

/** The usage of an embeddings reply. */
export interface EmbedUsage {
  tokens: number;
  costUsd?: number;
  /** The API reported no token count: `tokens` is an estimate (chars / 4) and the cost is priced from it. */
  estimated?: boolean;
}

/** What a provider can do. */
export interface ProviderCapabilities {
  /** Native tool calling. */
  tools: boolean;
  /** Streaming replies. */
  streaming: boolean;
  /** Native structured output (JSON Schema). */
  structuredOutput: boolean;
  /** Image inputs. */
  vision: boolean;
  /** Embeddings. */
  embeddings: boolean;
}

/**
 * The provider protocol. Adapters wrap one official SDK each; `complete` returns a whole reply,
 * `stream` yields parts (tool calls already assembled) and always ends with `usage` (when the
 * API reports it) and `finish`. Failures are thrown as `ProviderError`, never returned as text.
 */
export interface Provider {
  /** Provider name (`openai`, `anthropic`, `gemini`, `ollama`, `fallback`, `scripted`, …). */
  readonly name: string;
  /** The model used when the agent does not name one. Each provider has its own. */
  readonly defaultModel: string;
  readonly capabilities: ProviderCapabilities;
  complete(request: ProviderRequest): Promise<ProviderResponse>;
  stream(request: ProviderRequest): AsyncIterable<StreamPart>;
  embed?(request: EmbedRequest): Promise<EmbedResponse>;
}
