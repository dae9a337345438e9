/**
 * Finding where the complete paragraphs of a streaming answer end, incrementally: the scan
 * remembers how far it has read, so each delta costs its own length, not the whole open
 * paragraph again (a long paragraph without a blank line stays linear).
 */

/** How far a text has been scanned. Plain data (kept in the chat state next to the text). */
export interface ParagraphScan {
  /** Where the line being read starts (just after the last `\n` seen). */
  lineStart: number;
  /** Up to where the text has been searched for `\n` (everything before it has been read once). */
  searched: number;
  /** Whether the lines before `lineStart` leave a code fence open. */
  inFence: boolean;
  /** Whether a line has ended before `lineStart` (a blank first line does not end a paragraph). */
  seenLine: boolean;
  /** Just past the last blank line outside a fence (a paragraph break), or -1. */
  cut: number;
  /** Characters read in total: the work done, for tests (at most the text's length). */
  examined: number;
}

/** The scan of a text not read yet. */
export const NEW_SCAN: ParagraphScan = { lineStart: 0, searched: 0, inFence: false, seenLine: false, cut: -1, examined: 0 };

const FENCE = /^\s*(```|~~~)/;

/** Reads `text` from where `scan` stopped (the text may only have grown since) to its end. */
export function scanParagraphs(text: string, scan: ParagraphScan = NEW_SCAN): ParagraphScan {
  let { lineStart, inFence, seenLine, cut, examined } = scan;
  let from = Math.max(scan.searched, lineStart);
  for (;;) {
    const newline = text.indexOf('\n', from);
    if (newline < 0) {
      examined += text.length - from;
      break;
    }
    examined += newline + 1 - from;
    const line = text.slice(lineStart, newline);
    if (FENCE.test(line)) inFence = !inFence;
    if (!inFence && seenLine && line.trim() === '') cut = newline + 1;
    seenLine = true;
    lineStart = newline + 1;
    from = lineStart;
  }
  return { lineStart, searched: text.length, inFence, seenLine, cut, examined };
}

/**
 * The scan of `text.slice(at)` given the scan of `text`, where `at` is a paragraph break found by
 * the scan (`scan.cut`): nothing before `at` is read again.
 */
export function rebaseScan(scan: ParagraphScan, at: number): ParagraphScan {
  // The lines after the break were read with the fence closed at the break, as they would be alone.
  return {
    lineStart: scan.lineStart - at,
    searched: scan.searched - at,
    inFence: scan.inFence,
    seenLine: scan.lineStart > at,
    cut: scan.cut > at ? scan.cut - at : -1,
    examined: scan.examined,
  };
}

/**
 * Splits `text` (scanned by `scan`) into its complete paragraphs (up to the last blank line
 * outside a code fence, trailing blank lines dropped) and the rest still being written, with the
 * rest's scan. `done` is '' when nothing is complete yet.
 */
export function splitScanned(text: string, scan: ParagraphScan): { done: string; rest: string; scan: ParagraphScan } {
  if (scan.cut <= 0) return { done: '', rest: text, scan };
  const done = text.slice(0, scan.cut).trimEnd();
  if (done === '') return { done: '', rest: text, scan };
  return { done, rest: text.slice(scan.cut), scan: rebaseScan(scan, scan.cut) };
}
