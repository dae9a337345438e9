import { cutToWidth, displayWidth } from '../../lib/core/display-width.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';

/** The mark of a cut: `…`, or `...` where output must be ASCII (`--ascii`). */
export const ELLIPSIS = '…';
export const ASCII_ELLIPSIS = '...';

/** A signed difference: `+3`, `-120ms`, `±0` (`0` with `ascii`). */
export function formatDelta(delta: number, format: (value: number) => string = String, ascii = false): string {
  if (delta === 0) return ascii ? '0' : '±0';
  return delta > 0 ? `+${format(delta)}` : `-${format(-delta)}`;
}

/**
 * Cuts `text` to `width` terminal columns (wide CJK characters and emoji count two, graphemes are
 * never split), marking the cut with `…`; made safe first (`safeCell`: line breaks and tabs become
 * spaces, escape sequences and control characters are removed). `ellipsis`: see ELLIPSIS.
 */
export function fit(text: string, width: number, ellipsis = ELLIPSIS): string {
  return cutToWidth(safeCell(text), width, ellipsis);
}

/** Pads (or cuts, marked with `ellipsis`) `text` to exactly `width` terminal columns. */
export function cell(text: string, width: number, align: 'left' | 'right' = 'left', ellipsis = ELLIPSIS): string {
  const cut = fit(text, width, ellipsis);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

/** A local date and time, `2025-01-31 14:05`. */
export function formatTimestamp(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '-';
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Text from a trace file made safe for one table cell: no escape sequences or control characters, one line. */
export function safeCell(text: string): string {
  return sanitizeForTerminal(text).replace(/[\r\n\t]+/g, ' ');
}

/**
 * Lines of rows as a table with columns padded to their widest cell (in terminal columns; `right`
 * lists right-aligned columns). Cells hold trace file text: they are made safe (`safeCell`) first.
 */
export function table(rawRows: readonly (readonly string[])[], right: ReadonlySet<number> = new Set(), ellipsis = ELLIPSIS): string[] {
  const rows = rawRows.map((row) => row.map(safeCell));
  const widths: number[] = [];
  for (const row of rows) row.forEach((value, col) => (widths[col] = Math.max(widths[col] ?? 0, displayWidth(value))));
  return rows.map((row) =>
    row
      .map((value, col) => (col === row.length - 1 && !right.has(col) ? value : cell(value, widths[col] ?? 0, right.has(col) ? 'right' : 'left', ellipsis)))
      .join('  ')
      .trimEnd(),
  );
}
