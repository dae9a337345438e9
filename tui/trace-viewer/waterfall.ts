/** Where a step's bar sits in a waterfall column of `width` cells. */
export interface BarSpan {
  /** First cell (0-based). */
  start: number;
  /** Number of cells (at least 1). */
  width: number;
}

/**
 * Scales a step (`startedAt`, `durationMs`) onto a column of `width` cells spanning the run
 * (`runStart` … `runStart + runDurationMs`). Steps that start at the same time get the same
 * `start`, so parallel calls line up. Every step gets at least one cell; bars never overflow.
 */
export function barSpan(startedAt: number, durationMs: number, runStart: number, runDurationMs: number, width: number): BarSpan {
  if (width <= 0) return { start: 0, width: 0 };
  const total = runDurationMs > 0 ? runDurationMs : 1;
  const scale = width / total;
  const offset = Math.min(Math.max(0, startedAt - runStart), total);
  const start = Math.min(width - 1, Math.floor(offset * scale));
  const end = Math.min(width, Math.ceil((offset + Math.max(0, durationMs)) * scale));
  return { start, width: Math.max(1, end - start) };
}

/** The bar as text: spaces, then `█` for a span (or `┃` for an instant step), then spaces up to `width`. */
export function barText(span: BarSpan, width: number, instant: boolean): string {
  if (width <= 0) return '';
  const fill = instant ? '┃' : '█'.repeat(span.width);
  return ' '.repeat(span.start) + fill + ' '.repeat(Math.max(0, width - span.start - (instant ? 1 : span.width)));
}
