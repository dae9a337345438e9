import { ConfigurationError } from '../../core/errors/configuration-error.js';

/** A half-open range `[start, end)` of a text. */
export type Span = [number, number];

/** Size options shared by the splitters. */
export interface SplitSizes {
  /** Characters per chunk at most. Default 1,000. */
  chunkSize?: number;
  /** Characters shared by neighbouring chunks at most. Default 200; must be below `chunkSize`. */
  chunkOverlap?: number;
}

/** Checks and defaults chunkSize / chunkOverlap. */
export function resolveSizes(options: SplitSizes, what: string): { size: number; overlap: number } {
  const size = options.chunkSize ?? 1000;
  const overlap = options.chunkOverlap ?? 200;
  if (!Number.isInteger(size) || size < 1) throw new ConfigurationError(`${what}: chunkSize must be a positive integer, got ${size}`, { key: 'chunkSize' });
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new ConfigurationError(`${what}: chunkOverlap must be an integer from 0 to chunkSize - 1 (${size - 1}), got ${overlap}`, { key: 'chunkOverlap' });
  }
  return { size, overlap };
}

/**
 * Cuts `[start, end)` of `text` into contiguous pieces of at most `size` characters: at the first
 * separator of `separators[level..]` that occurs (each piece keeps its trailing separator), going
 * on to the next separator only for pieces still too long, and cutting into pieces of
 * min(overlap, size − overlap) characters (`size` without overlap) when no separator is left (`''` means exactly that). Each level uses a later separator and a
 * hard cut always advances, so any input ends: one huge word, only separators, megabytes without
 * a newline.
 */
export function splitSpans(text: string, start: number, end: number, separators: readonly string[], size: number, overlap: number, level = 0, out: Span[] = []): Span[] {
  if (end - start <= size) {
    if (end > start) out.push([start, end]);
    return out;
  }
  const separator = separators[level];
  if (separator === undefined || separator === '') {
    // Hard cut in steps of the overlap (or of the chunk size without one), so merging can still overlap.
    const step = overlap > 0 ? Math.min(overlap, size - overlap) : size;
    for (let at = start; at < end; at += step) out.push([at, Math.min(end, at + step)]);
    return out;
  }
  // Search a slice of the range only: indexOf on the whole text could scan far past `end` for
  // every piece (quadratic on megabytes without the separator).
  const segment = text.slice(start, end);
  let pieceStart = start;
  let found = false;
  for (;;) {
    const at = segment.indexOf(separator, pieceStart - start);
    if (at === -1) break;
    found = true;
    const pieceEnd = start + at + separator.length;
    splitSpans(text, pieceStart, pieceEnd, separators, size, overlap, level + 1, out);
    pieceStart = pieceEnd;
  }
  if (!found) return splitSpans(text, start, end, separators, size, overlap, level + 1, out);
  splitSpans(text, pieceStart, end, separators, size, overlap, level + 1, out);
  return out;
}

/**
 * Merges contiguous pieces (each at most `size`) into chunks of at most `size` characters; a new
 * chunk starts with the tail pieces of the previous one that fit in `overlap`. Every new chunk
 * drops at least one piece of the previous, so merging always advances.
 */
export function mergeSpans(pieces: readonly Span[], size: number, overlap: number): Span[] {
  const chunks: Span[] = [];
  let first = 0;
  let length = 0;
  for (let i = 0; i < pieces.length; i++) {
    const [s, e] = pieces[i] as Span;
    const pieceLength = e - s;
    if (length + pieceLength > size && i > first) {
      chunks.push([(pieces[first] as Span)[0], (pieces[i - 1] as Span)[1]]);
      while (i > first && (length > overlap || length + pieceLength > size)) {
        const [fs, fe] = pieces[first] as Span;
        length -= fe - fs;
        first += 1;
      }
    }
    length += pieceLength;
  }
  if (first < pieces.length) chunks.push([(pieces[first] as Span)[0], (pieces[pieces.length - 1] as Span)[1]]);
  return chunks;
}

/** Narrows a span to its text without leading and trailing whitespace; undefined when nothing is left. */
export function trimSpan(text: string, [start, end]: Span): Span | undefined {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text[s] as string)) s++;
  while (e > s && /\s/.test(text[e - 1] as string)) e--;
  return e > s ? [s, e] : undefined;
}
