/** Small text helpers of the chat view (pure). */
import { formatDuration as formatUnitsDuration } from '../../lib/core/format-units.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import { cutToWidth } from '../../lib/core/display-width.js';

/** `850ms`, `1.2s`, `2m 05s` (lib/core/format-units.ts, `tenths` style). */
export function formatDuration(ms: number): string {
  return formatUnitsDuration(ms, 'tenths');
}

/** `950`, `12.3k`, `1.2M`; `$0.0000`, `$0.000049`, `$0.0123`, `$1.23` (shared with the trace viewer and CLI: lib/core/format-units.ts). */
export { formatTokens, formatCostFixed as formatCost } from '../../lib/core/format-units.js';

/** One line: `a=1, b="x"`, cut to `max` terminal columns. */
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

/** Cuts to `max` terminal columns with an ellipsis (CJK and emoji count two; graphemes stay whole). */
export function cut(text: string, max: number): string {
  return cutToWidth(text, max);
}

/** The first `maxLines` lines (each cut to `width` columns), and how many lines were left out. */
export function headLines(text: string, maxLines: number, width = 200): { lines: string[]; hidden: number } {
  const all = text.trimEnd().split('\n');
  return { lines: all.slice(0, maxLines).map((line) => cut(line, width)), hidden: Math.max(0, all.length - maxLines) };
}

/** Context fill in percent (undefined when the window is unknown). */
export function contextFill(promptTokens: number, contextWindow: number | undefined): number | undefined {
  if (contextWindow === undefined || contextWindow <= 0) return undefined;
  return Math.min(100, Math.round((promptTokens / contextWindow) * 100));
}

/**
 * Context fill as the footer and /cost show it: `42%`, `<1%` when some tokens fill less than half a
 * percent, `0%` when none; undefined when the window is unknown.
 */
export function contextFillText(promptTokens: number, contextWindow: number | undefined): string | undefined {
  const fill = contextFill(promptTokens, contextWindow);
  if (fill === undefined) return undefined;
  return fill === 0 && promptTokens > 0 ? '<1%' : `${fill}%`;
}
