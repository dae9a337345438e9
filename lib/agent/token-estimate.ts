import type { Message } from '../core/message.js';
import type { ProviderToolSpec } from '../providers/spec.js';

/**
 * Token estimates for prompts and runs.
 *
 * Counting uses gpt-tokenizer when it can be loaded (imported lazily, on the first async call,
 * never at import time), otherwise `ceil(chars / 4)`. The tokenizer is OpenAI's BPE; for other
 * providers' models it is an approximation (typically within ~10-20%).
 *
 * Framing overheads added on top of the text (OpenAI's chat format, used as the rough rule for
 * every provider):
 * - each message: {@link MESSAGE_OVERHEAD} tokens (role and separators);
 * - once per message list: {@link REPLY_PRIMING} tokens (the primed assistant turn);
 * - each tool call on a message: {@link TOOL_CALL_OVERHEAD} tokens plus its name and JSON arguments;
 * - each image: {@link IMAGE_TOKENS} tokens (a low-detail image);
 * - each tool definition: {@link TOOL_OVERHEAD} tokens plus its name, description and JSON schema;
 * - a system prompt counts as one message.
 */

/** Tokens of framing per message. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens priming the assistant reply, once per message list. */
export const REPLY_PRIMING = 3;
/** Tokens of framing per tool call carried on a message. */
export const TOOL_CALL_OVERHEAD = 3;
/** Tokens per attached image (low-detail estimate). */
export const IMAGE_TOKENS = 85;
/** Tokens of framing per tool definition. */
export const TOOL_OVERHEAD = 8;

/** How a count was made. */
export type TokenEstimateMethod = 'tokenizer' | 'chars';

/** A token estimate with its breakdown. */
export interface TokenEstimate {
  total: number;
  breakdown: {
    system: number;
    messages: number;
    tools: number;
    /** Tokens of each message, in order (when messages were given). */
    perMessage?: number[];
  };
  method: TokenEstimateMethod;
}

/** Options of the estimators. */
export interface EstimateOptions {
  /** Model id; picks the tokenizer encoding (cl100k for GPT-3.5/GPT-4, o200k otherwise). */
  model?: string;
}

/** What `estimateRunTokens` counts: the request a run would send. */
export interface RunTokenInput extends EstimateOptions {
  system?: string;
  messages: readonly Message[];
  tools?: readonly ProviderToolSpec[];
}

type Counter = (text: string) => number;
type EncodingName = 'o200k_base' | 'cl100k_base';

/** `ceil(chars / 4)`: the fallback rule. */
export function charsToTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const loaded = new Map<EncodingName, Promise<Counter | undefined>>();
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

/** Models on the older cl100k_base encoding; everything else uses o200k_base. */
function encodingFor(model: string | undefined): EncodingName {
  return model && /^(?:gpt-3\.5|gpt-4(?:-|$)|text-embedding-(?:3|ada))/.test(model)
    ? 'cl100k_base'
    : 'o200k_base';
}

/** Loads (once) a counter for the encoding; undefined when gpt-tokenizer is not available. */
function loadCounter(encoding: EncodingName): Promise<Counter | undefined> {
  let pending = loaded.get(encoding);
  if (!pending) {
    const load = encoding === 'cl100k_base' ? import('gpt-tokenizer/encoding/cl100k_base') : import('gpt-tokenizer/encoding/o200k_base');
    pending = load.then(
      (mod): Counter => (text) => (text ? mod.countTokens(text, NO_SPECIAL) : 0),
      () => undefined,
    );
    loaded.set(encoding, pending);
  }
  return pending;
}

function messageTokens(message: Message, count: Counter): number {
  let tokens = MESSAGE_OVERHEAD + count(message.content);
  if (message.name) tokens += count(message.name);
  for (const call of message.toolCalls ?? []) {
    tokens += TOOL_CALL_OVERHEAD + count(call.toolName) + count(JSON.stringify(call.parameters));
  }
  tokens += (message.images?.length ?? 0) * IMAGE_TOKENS;
  return tokens;
}

function toolTokens(tool: ProviderToolSpec, count: Counter): number {
  return TOOL_OVERHEAD + count(tool.name) + count(tool.description) + count(JSON.stringify(tool.parameters));
}

function buildEstimate(input: RunTokenInput, count: Counter, method: TokenEstimateMethod): TokenEstimate {
  const system = input.system ? MESSAGE_OVERHEAD + count(input.system) : 0;
  const perMessage = input.messages.map((message) => messageTokens(message, count));
  const messages = perMessage.reduce((sum, n) => sum + n, 0) + (perMessage.length > 0 ? REPLY_PRIMING : 0);
  const tools = (input.tools ?? []).reduce((sum, tool) => sum + toolTokens(tool, count), 0);
  return { total: system + messages + tools, breakdown: { system, messages, tools, perMessage }, method };
}

function textEstimate(text: string, count: Counter, method: TokenEstimateMethod): TokenEstimate {
  const tokens = count(text);
  return { total: tokens, breakdown: { system: 0, messages: tokens, tools: 0 }, method };
}

async function counterFor(model: string | undefined): Promise<[Counter, TokenEstimateMethod]> {
  const counter = await loadCounter(encodingFor(model));
  return counter ? [counter, 'tokenizer'] : [charsToTokens, 'chars'];
}

/**
 * Estimates the tokens of a text (no framing) or of a message list (with per-message overheads).
 * Loads gpt-tokenizer on first use; falls back to chars / 4 when it cannot be loaded.
 */
export async function estimateTokens(input: string | readonly Message[], options: EstimateOptions = {}): Promise<TokenEstimate> {
  const [count, method] = await counterFor(options.model);
  return typeof input === 'string' ? textEstimate(input, count, method) : buildEstimate({ messages: input }, count, method);
}

/** Estimates what a run would send: system prompt, messages and tool definitions. */
export async function estimateRunTokens(input: RunTokenInput): Promise<TokenEstimate> {
  const [count, method] = await counterFor(input.model);
  return buildEstimate(input, count, method);
}

/** Synchronous chars / 4 estimate of a text or message list (never loads the tokenizer). */
export function estimateTokensSync(input: string | readonly Message[]): number {
  return typeof input === 'string' ? charsToTokens(input) : buildEstimate({ messages: input }, charsToTokens, 'chars').total;
}

/** Synchronous chars / 4 version of `estimateRunTokens` (never loads the tokenizer). */
export function estimateRunTokensSync(input: RunTokenInput): TokenEstimate {
  return buildEstimate(input, charsToTokens, 'chars');
}
