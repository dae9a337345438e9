/** Sizes of the viewer's parts for a terminal of `columns` × `rows`. */
export interface ViewerLayout {
  /** Width every line is drawn to (one less than the terminal, so no line wraps). */
  width: number;
  /** Total lines drawn (one less than the terminal, so Ink never clears the screen to redraw). */
  height: number;
  /** Step rows shown at once. */
  treeRows: number;
  /** Detail pane lines shown at once (below its title line). */
  detailRows: number;
  /** Width of the tree part of a row (marker, indent, glyph, type, name). */
  labelWidth: number;
  /** Width of the waterfall column. */
  barWidth: number;
}

/** Fixed columns of a row: pointer, then ` duration tokens cost ` around the label and bar. */
export const DURATION_WIDTH = 7;
export const TOKENS_WIDTH = 6;
export const COST_WIDTH = 8;
const FIXED = 1 + 1 + DURATION_WIDTH + 1 + TOKENS_WIDTH + 1 + COST_WIDTH + 1;
/** Header (2), filter bar (1), column titles (1), detail title (1), help line (1). */
const CHROME = 6;

/** `steps`: how many steps the trace has (a short trace leaves the room to the detail pane). */
export function viewerLayout(columns: number, rows: number, steps = Infinity): ViewerLayout {
  const width = Math.max(40, columns - 1);
  const height = Math.max(CHROME + 4, rows - 1);
  const body = height - CHROME;
  const treeRows = Math.max(2, Math.min(Math.ceil(body * 0.6), steps + 1));
  const detailRows = Math.max(1, body - treeRows);
  const barWidth = Math.max(8, Math.floor((width - FIXED) * 0.35));
  const labelWidth = Math.max(10, width - FIXED - barWidth);
  return { width, height, treeRows, detailRows, labelWidth, barWidth };
}
