import { redactSecrets } from '../events/redact.js';

/** Default number of characters of tool output (and other summaries) kept in a trace step. */
export const DEFAULT_TOOL_RESULT_CHARS = 2000;

/**
 * `text` cut to `maxChars`, with a marker saying how much was dropped:
 * `"abc… [truncated 1234 chars]"`. Text within the limit is returned unchanged.
 */
export function truncateSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const kept = Math.max(0, Math.floor(maxChars));
  return `${text.slice(0, kept)}… [truncated ${text.length - kept} chars]`;
}

/** What an LLM call was sent, as counts: `1 message, 0 tools`, `5 messages, 1 tool`. */
export function callInputSummary(messageCount: number, toolCount: number): string {
  return `${messageCount} message${messageCount === 1 ? '' : 's'}, ${toolCount} tool${toolCount === 1 ? '' : 's'}`;
}

/** Compact JSON of a value (never throws; falls back to String()). */
export function jsonSummary(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Tool arguments as a trace records them: compact JSON with the values of secret-looking keys
 * (`api_key`, `token`, `secret`, `password`, `authorization`, case-insensitive, at any depth)
 * replaced by `[REDACTED]` (see `redactSecrets`; numeric token counts such as `max_tokens` are
 * kept). Traces are written to disk and shared: secrets never go there.
 */
export function argsSummary(args: unknown): string {
  return jsonSummary(redactSecrets(args));
}

/** Milliseconds since the epoch as an ISO string (an invalid time gives the epoch). */
export function isoTimestamp(ms: number): string {
  // Hot path (every trace step): format the date-and-seconds part once per second, then append ms.
  if (!Number.isFinite(ms)) return new Date(0).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond || !(ms >= 0 && ms < 253402300800000)) {
    const date = new Date(ms);
    if (Number.isNaN(date.getTime())) return new Date(0).toISOString();
    if (!(ms >= 0 && ms < 253402300800000)) return date.toISOString(); // outside years 1970–9999
    cachedSecond = second;
    cachedPrefix = date.toISOString().slice(0, 19);
  }
  const millis = Math.floor(ms) - second * 1000;
  return `${cachedPrefix}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

let cachedSecond = Number.NaN;
let cachedPrefix = '';
