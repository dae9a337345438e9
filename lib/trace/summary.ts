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

/** Compact JSON of a value (never throws; falls back to String()). */
export function jsonSummary(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Milliseconds since the epoch as an ISO string (an invalid time gives the epoch). */
export function isoTimestamp(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}
