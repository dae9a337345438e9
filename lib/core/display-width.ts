/**
 * Terminal column arithmetic. A string's length in UTF-16 code units (or code points) is not its
 * width on screen: CJK and most emoji take two columns, combining marks and zero-width joiners
 * none. Everything that cuts or pads text for a terminal goes through these two functions.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Printable ASCII: one column a character (string-width's own fast path). */
const PRINTABLE_ASCII = /^[\u0020-\u007E]*$/;
/** The width of each grapheme met so far (string-width's per-grapheme work is costly before V8 optimises it). */
const graphemeWidths = new Map<string, number>();
const MAX_CACHED_GRAPHEMES = 10_000;

/**
 * Columns `text` takes on a terminal (escape sequences count zero): string-width's answer. Text
 * that is not printable ASCII is measured grapheme by grapheme (string-width sums its graphemes'
 * widths, each decided by that grapheme alone), and each distinct grapheme is measured once: a
 * screen of tree lines repeats the same few box-drawing characters and glyphs.
 */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  if (text.includes('\u001B') || text.includes('\u009B')) return stringWidth(text);
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    let columns = graphemeWidths.get(segment);
    if (columns === undefined) {
      columns = stringWidth(segment);
      if (graphemeWidths.size < MAX_CACHED_GRAPHEMES) graphemeWidths.set(segment, columns);
    }
    width += columns;
  }
  return width;
}

/**
 * A drop-in for string-width's default export (scripts/bundle-tui.mjs points the bundled Ink at
 * it): {@link displayWidth} for a string with the default options, string-width itself otherwise.
 */
export function stringWidthCompatible(text: string, options?: Parameters<typeof stringWidth>[1]): number {
  return options === undefined && typeof text === 'string' ? displayWidth(text) : stringWidth(text, options);
}

/**
 * Cuts `text` to at most `width` columns without splitting a grapheme (an emoji sequence or a
 * letter with its combining marks), ending with `ellipsis` when cut. Text that fits is returned as is.
 */
export function cutToWidth(text: string, width: number, ellipsis = '…'): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  if (room < 0) return '';
  let used = 0;
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    const cols = displayWidth(segment);
    if (used + cols > room) break;
    used += cols;
    out += segment;
  }
  return out + ellipsis;
}

/** `text` cut to `width` columns (see {@link cutToWidth}) and padded with spaces to exactly `width`. */
export function fitToWidth(text: string, width: number): string {
  const cut = cutToWidth(text, width);
  return cut + ' '.repeat(Math.max(0, width - displayWidth(cut)));
}

/** The end of `text` that fits `width` columns, led by `…` when cut (an input line's visible tail). */
export function tailToWidth(text: string, width: number, ellipsis = '…'): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  if (room < 0) return '';
  const parts = [...segmenter.segment(text)].map((part) => part.segment);
  let used = 0;
  let start = parts.length;
  while (start > 0) {
    const cols = displayWidth(parts[start - 1] as string);
    if (used + cols > room) break;
    used += cols;
    start -= 1;
  }
  return ellipsis + parts.slice(start).join('');
}
