/** Where a step's bar sits in a waterfall column of `cells` cells. */
export interface BarSpan {
  /** First cell (0-based). */
  start: number;
  /** Number of cells: at least 1 (0 only for a column of no cells). */
  width: number;
}

/**
 * Scales a step (`offsetMs` from the run start, `durationMs`) onto a column of `cells` cells
 * spanning the run (`0 … runDurationMs`). Steps that start at the same time get the same `start`,
 * so parallel calls line up. Every step gets at least one cell (an instant step exactly one);
 * bars never leave the column. Used by the interactive viewer and `agentlib trace show` alike.
 */
export function barSpan(offsetMs: number, durationMs: number, runDurationMs: number, cells: number): BarSpan {
  if (cells <= 0) return { start: 0, width: 0 };
  const total = runDurationMs > 0 ? runDurationMs : 1;
  const from = Math.min(Math.max(0, offsetMs), total);
  // multiply before dividing: integer milliseconds scale exactly (220 ms of 400 on 40 cells is 22, not 22.000000000000004)
  const start = Math.min(cells - 1, Math.floor((from * cells) / total));
  const end = Math.min(cells, Math.ceil(((from + Math.max(0, durationMs)) * cells) / total));
  return { start, width: Math.max(1, end - start) };
}

/** The characters a bar is drawn with: `full` for each cell of a span, `instant` for a step of no duration. */
export interface BarGlyphs {
  full: string;
  instant: string;
}

/** Unicode bar glyphs (the viewer's). */
export const BAR_GLYPHS: BarGlyphs = { full: '█', instant: '┃' };

/**
 * The bar as text: spaces up to `span.start`, then `glyphs.full` for each cell of the span (or one
 * `glyphs.instant` for an instant step), then spaces up to `cells` (none when `pad` is false).
 */
export function barText(span: BarSpan, cells: number, instant: boolean, glyphs: BarGlyphs = BAR_GLYPHS, pad = true): string {
  if (cells <= 0) return '';
  const used = instant ? 1 : span.width;
  const mark = instant ? glyphs.instant : glyphs.full.repeat(span.width);
  return ' '.repeat(span.start) + mark + (pad ? ' '.repeat(Math.max(0, cells - span.start - used)) : '');
}
