/**
 * Opaque reasoning state a provider attached to an assistant reply and wants back, unchanged, when
 * the conversation continues. Kept on `Message.reasoningParts` (in the order the provider sent
 * them), never shown as answer text, JSON-serialisable (strings and numbers only), so histories,
 * sessions, caches and cassettes keep them.
 *
 * Every part names the adapter that produced it (`provider`, the adapter's `name`: `'anthropic'`,
 * `'gemini'`, …): an adapter sends back only its own parts, so switching providers mid-conversation
 * (a fallback, a new model) never sends one vendor's signatures to another. Adapters that have no
 * such state (OpenAI, Ollama) ignore them.
 *
 * - `thinking`: a block of the model's thinking with the signature that authenticates it
 *   (Anthropic `thinking` blocks: `text` is the block's `thinking`, `signature` its `signature`,
 *   both byte for byte). A block that arrived without a signature is kept without one.
 * - `redacted`: thinking the provider encrypted (Anthropic `redacted_thinking`: `data` as received).
 * - `signature`: a signature attached to the reply's text rather than to a block of its own (Gemini
 *   `thoughtSignature` on a text part; base64 as received). Signatures on tool calls stay on
 *   `ToolCall.thoughtSignature`.
 *
 * Optional position fields let an adapter rebuild the reply's layout (parts recorded without them,
 * by older versions, are sent back in the default layout):
 * - `index` (thinking, redacted): the block's position among the reply's content blocks, set only
 *   when the block came after answer text or a tool call (interleaved thinking); a block without
 *   it leads the reply.
 * - `text` and `offset` (signature): the text of the part that carried the signature (a copy, `''`
 *   for a part with no text) and how many characters of the reply's answer text came before it, so
 *   the signed part is sent back on its own, with its own text.
 */
export type ReasoningPart =
  | { type: 'thinking'; provider: string; text: string; signature?: string; index?: number }
  | { type: 'redacted'; provider: string; data: string; index?: number }
  | { type: 'signature'; provider: string; signature: string; text?: string; offset?: number };

/** The parts of `parts` that `provider` produced (the ones its adapter may send back), in order. */
export function reasoningPartsFor(parts: readonly ReasoningPart[] | undefined, provider: string): ReasoningPart[] {
  if (!parts || parts.length === 0) return [];
  return parts.filter((part) => part.provider === provider);
}
