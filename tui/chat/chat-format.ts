/** Small text helpers of the chat view (pure). */
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';

/** `850ms`, `1.2s`, `2m 05s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

/** `950`, `12.3k`, `1.2M`. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `$0.0012`, `$1.23`. */
export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** One line: `a=1, b="x"`, cut to `max` characters. */
export function summarizeArgs(args: Record<string, unknown>, max = 80): string {
  const text = Object.entries(args)
    .map(([key, value]) => `${key}=${oneLine(JSON.stringify(value) ?? String(value))}`)
    .join(', ');
  return cut(sanitizeForTerminal(text), max);
}

/** Collapses whitespace to single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts to `max` characters with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

/** The first `maxLines` lines (each cut to `width`), and how many lines were left out. */
export function headLines(text: string, maxLines: number, width = 200): { lines: string[]; hidden: number } {
  const all = text.trimEnd().split('\n');
  return { lines: all.slice(0, maxLines).map((line) => cut(line, width)), hidden: Math.max(0, all.length - maxLines) };
}

/** The last `maxLines` lines of `text`, and how many lines were left out above. */
export function tailLines(text: string, maxLines: number): { text: string; hidden: number } {
  const all = text.split('\n');
  if (all.length <= maxLines) return { text, hidden: 0 };
  return { text: all.slice(-maxLines).join('\n'), hidden: all.length - maxLines };
}

/** Context fill in percent (undefined when the window is unknown). */
export function contextFill(promptTokens: number, contextWindow: number | undefined): number | undefined {
  if (contextWindow === undefined || contextWindow <= 0) return undefined;
  return Math.min(100, Math.round((promptTokens / contextWindow) * 100));
}
