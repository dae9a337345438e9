/**
 * Terminal rows of text (pure): word wrapping by display width (CJK and emoji take two columns),
 * the way the live region budgets its height. Every row returned is at most `width` columns wide.
 */
import { cutToWidth, displayWidth } from '../../lib/core/display-width.js';
import { splitToWidth } from '../../lib/core/split-to-width.js';

/** A run of text drawn in one style; `kind` is the caller's (inline Markdown kinds, say). */
export interface Span<K extends string = string> {
  kind: K;
  text: string;
}

/** Splits text into alternating runs of whitespace and non-whitespace. */
function tokens(text: string): string[] {
  return text.match(/\s+|\S+/g) ?? [];
}

/**
 * Wraps styled spans into rows of at most `width` columns: greedy by words, a word wider than a
 * row is split; whitespace at a break is dropped (leading whitespace of the first row is kept).
 * Empty input gives one empty row.
 */
export function wrapSpans<K extends string>(spans: readonly Span<K>[], width: number): Span<K>[][] {
  const room = Math.max(1, width);
  const rows: Span<K>[][] = [[]];
  let used = 0;
  const put = (kind: K, text: string, cols: number): void => {
    const row = rows[rows.length - 1] as Span<K>[];
    const last = row.at(-1);
    if (last !== undefined && last.kind === kind) row[row.length - 1] = { kind, text: last.text + text };
    else row.push({ kind, text });
    used += cols;
  };
  const newRow = (): void => {
    const row = rows[rows.length - 1] as Span<K>[];
    // Trailing whitespace before a break is not drawn.
    while (row.length > 0) {
      const last = row[row.length - 1] as Span<K>;
      const trimmed = last.text.trimEnd();
      if (trimmed === last.text) break;
      if (trimmed === '') row.pop();
      else {
        row[row.length - 1] = { kind: last.kind, text: trimmed };
        break;
      }
    }
    rows.push([]);
    used = 0;
  };
  for (const span of spans) {
    for (const token of tokens(span.text)) {
      const cols = displayWidth(token);
      if (/^\s/.test(token)) {
        if (used === 0 && rows.length > 1) continue;
        if (used + cols <= room) put(span.kind, token, cols);
        else newRow();
        continue;
      }
      if (used + cols <= room) {
        put(span.kind, token, cols);
        continue;
      }
      if (cols <= room) {
        newRow();
        put(span.kind, token, cols);
        continue;
      }
      // A word wider than a row: fill what is left of this row, then whole rows.
      let rest = token;
      if (room - used > 0 && used > 0) {
        const [head] = splitToWidth(rest, room - used);
        if (head !== undefined && displayWidth(head) <= room - used) {
          put(span.kind, head, displayWidth(head));
          rest = rest.slice(head.length);
        }
      }
      for (const piece of splitToWidth(rest, room)) {
        if (used > 0) newRow();
        put(span.kind, piece, displayWidth(piece));
      }
    }
  }
  return rows;
}

/** Plain text wrapped into rows of at most `width` columns (line breaks start new rows). */
export function wrapText(text: string, width: number): string[] {
  return text.split('\n').flatMap((line) => wrapSpans([{ kind: 'plain', text: line }], width).map((row) => row.map((span) => span.text).join('')));
}

/** `text` cut to one row of `width` columns (re-exported for the components). */
export function oneRow(text: string, width: number): string {
  return cutToWidth(text.replace(/[\r\n]+/g, ' '), width);
}
