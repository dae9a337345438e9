import { displayWidth } from './display-width.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Printable ASCII only: one column a character, so slicing is enough. */
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * `text` (one line) split into pieces of at most `width` terminal columns each, in order, without
 * splitting a grapheme (wide CJK characters and emoji take two columns; a grapheme wider than
 * `width` gets a piece of its own). Linear in the length of `text`; an empty text gives no pieces.
 */
export function splitToWidth(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const pieces: string[] = [];
  if (PLAIN.test(text)) {
    for (let i = 0; i < text.length; i += room) pieces.push(text.slice(i, i + room));
    return pieces;
  }
  let piece = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const cols = displayWidth(segment);
    if (used + cols > room && piece !== '') {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += cols;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}
