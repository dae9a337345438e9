/**
 * What the live region draws of the running turn, in terminal rows (pure): the newest rows of the
 * streaming text, wrapped at the terminal width, and the tool cards still open, cut to a row
 * budget so the live region stays shorter than the terminal.
 */
import { displayWidth } from '../../lib/core/display-width.js';
import type { LiveTurn, ToolCard } from './chat-state.js';
import { parseInline, parseMarkdown, type InlineSpan, type MarkdownBlock } from './markdown-blocks.js';
import { wrapSpans, type Span } from './text-rows.js';
import { tracePaneRows } from './TracePane.js';
import { toolCardRows } from './ToolCard.js';

/** How a row of streamed text is drawn. */
export type RowTone = 'plain' | 'heading' | 'quote' | 'code' | 'lang';

/** One terminal row of streamed text: a prefix (list marker, code gutter…) and styled spans. */
export interface TextRow {
  tone: RowTone;
  prefix: string;
  spans: Span<InlineSpan['kind']>[];
}

/** One thing the live region draws; `rows` is its height. */
export type LiveItem =
  | { kind: 'more'; rows: 1 }
  | { kind: 'text'; row: TextRow; rows: 1 }
  | { kind: 'tool'; card: ToolCard; compact: boolean; rows: number };

/** Rows of one Markdown block, newest last; `limit`: at most this many from the end (`more` when some were left out). */
interface BlockRows {
  rows: TextRow[];
  more: boolean;
}

/** Characters of a long line kept for its last `rows` rows: enough, even for wide text, without wrapping all of it. */
function keepChars(rows: number, width: number): number {
  return (rows + 1) * Math.max(1, width) * 4;
}

/** The end of `text` that is enough for its last `rows` rows (not splitting a surrogate pair). */
function tailFor(text: string, rows: number, width: number): { text: string; cut: boolean } {
  const keep = keepChars(rows, width);
  if (text.length <= keep) return { text, cut: false };
  let start = text.length - keep;
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  return { text: text.slice(start), cut: true };
}

function inlineSpans(text: string, color: boolean): Span<InlineSpan['kind']>[] {
  return parseInline(text).map((span) => (span.kind === 'code' && !color ? { kind: 'code' as const, text: `\`${span.text}\`` } : span));
}

/** Wraps `text` after `first` (first row) / `rest` (other rows) prefixes; the last `limit` rows. */
function wrapBlock(tone: RowTone, text: string, first: string, rest: string, width: number, limit: number, color: boolean, inline = true): BlockRows {
  const { text: tail, cut } = tailFor(text, limit, width);
  const room = Math.max(1, width - Math.max(displayWidth(first), displayWidth(rest)));
  const spans: Span<InlineSpan['kind']>[] = inline ? inlineSpans(tail, color) : [{ kind: 'plain', text: tail }];
  const wrapped = wrapSpans(spans, room);
  const rows = wrapped.map((row, i) => ({ tone, prefix: i === 0 && !cut ? first : rest, spans: row }));
  const more = cut || rows.length > limit;
  return { rows: rows.slice(-limit), more };
}

function blockRows(block: MarkdownBlock, width: number, limit: number, color: boolean): BlockRows {
  switch (block.kind) {
    case 'blank':
      return { rows: [{ tone: 'plain', prefix: '', spans: [] }], more: false };
    case 'line':
      return wrapBlock('plain', block.text, '', '', width, limit, color);
    case 'heading': {
      const mark = color ? '' : `${'#'.repeat(block.level)} `;
      return wrapBlock('heading', block.text, mark, ' '.repeat(mark.length), width, limit, color);
    }
    case 'item': {
      const indent = ' '.repeat(block.indent * 2);
      const first = `${indent}${block.marker} `;
      return wrapBlock('plain', block.text, first, ' '.repeat(displayWidth(first)), width, limit, color);
    }
    case 'quote':
      return wrapBlock('quote', block.text, '▎ ', '▎ ', width, limit, color);
    case 'code': {
      const gutter = color ? '  ' : '  │ ';
      const rows: TextRow[] = [];
      let more = false;
      for (let i = block.lines.length - 1; i >= 0 && rows.length < limit; i--) {
        const line = block.lines[i] as string;
        const part = wrapBlock('code', line === '' ? ' ' : line, gutter, gutter, width, limit - rows.length, color, false);
        rows.unshift(...part.rows);
        if (part.more) more = true;
        if (i > 0 && rows.length >= limit) more = true;
      }
      if (block.lang !== '') {
        if (rows.length < limit) rows.unshift({ tone: 'lang', prefix: '  ', spans: [{ kind: 'plain', text: block.lang }] });
        else more = true;
      }
      return { rows, more };
    }
  }
}

/**
 * The last `limit` terminal rows of streamed Markdown `text` at `width` columns, and whether
 * rows above them were left out. Only the end of the text is wrapped.
 */
export function tailRows(text: string, width: number, limit: number, color: boolean): { rows: TextRow[]; more: boolean } {
  if (limit <= 0) return { rows: [], more: text.trim() !== '' };
  const blocks = parseMarkdown(text.replace(/^\n+/, '').replace(/\t/g, '  '));
  const rows: TextRow[] = [];
  let more = false;
  for (let i = blocks.length - 1; i >= 0; i--) {
    if (rows.length >= limit) {
      more = true;
      break;
    }
    const part = blockRows(blocks[i] as MarkdownBlock, width, limit - rows.length, color);
    rows.unshift(...part.rows);
    if (part.more) {
      more = true;
      break;
    }
  }
  return { rows: rows.slice(-limit), more: more || rows.length > limit };
}

/** Fills `budget` rows from the newest segment backwards; `hidden` when something did not fit. */
function fill(turn: LiveTurn, width: number, budget: number, color: boolean): { items: LiveItem[]; hidden: boolean } {
  const items: LiveItem[] = [];
  let left = budget;
  for (let i = turn.segments.length - 1; i >= 0; i--) {
    const segment = turn.segments[i];
    if (segment === undefined) continue;
    if (left <= 0) return { items, hidden: true };
    if (segment.kind === 'tool') {
      const card = turn.tools[segment.callId];
      if (card === undefined) continue;
      const full = toolCardRows(card, width);
      if (full <= left) {
        items.unshift({ kind: 'tool', card, compact: false, rows: full });
        left -= full;
        continue;
      }
      items.unshift({ kind: 'tool', card, compact: true, rows: 1 });
      left -= 1;
      if (full > 1) return { items, hidden: true };
      continue;
    }
    if (segment.text.trim() === '') continue;
    const { rows, more } = tailRows(segment.text, width, left, color);
    items.unshift(...rows.map((row): LiveItem => ({ kind: 'text', row, rows: 1 })));
    left -= rows.length;
    if (more) return { items, hidden: true };
  }
  return { items, hidden: false };
}

/**
 * The live region's items for the running turn within `maxRows` rows at `width` columns: the
 * newest text rows and open tool cards; when something above does not fit, a "more above" row
 * first. The sum of `rows` never exceeds `maxRows`.
 */
export function layoutLive(turn: LiveTurn, width: number, maxRows: number, color: boolean): LiveItem[] {
  if (maxRows <= 0) return [];
  const all = fill(turn, width, maxRows, color);
  if (!all.hidden || maxRows === 1) return all.items;
  const some = fill(turn, width, maxRows - 1, color);
  return [{ kind: 'more', rows: 1 }, ...some.items];
}

/** The rows `items` take. */
export function liveRows(items: readonly LiveItem[]): number {
  return items.reduce((sum, item) => sum + item.rows, 0);
}

/** The input line: a blank row above it, and its own row. */
const INPUT_ROWS = 2;

/** Rows of the live region's parts at a terminal size: the live turn gets what is left, so the whole stays shorter than the terminal. */
export interface LiveBudget {
  /** Rows for the streaming text and open tool cards (may be 0: nothing of them is drawn). */
  live: number;
  /** Trace rows the trace pane shows (0: the pane is hidden). */
  trace: number;
}

/**
 * Splits `rows - 1` terminal rows among the live region's parts: the input line, the footer and
 * the approval prompt (their real heights at this width), then the trace pane (up to a third of
 * the screen), then the streaming turn.
 */
export function liveBudget(rows: number, fixed: { footerRows: number; approvalRows: number; traceVisible: boolean; traceCount: number }): LiveBudget {
  const room = rows - 1 - INPUT_ROWS - fixed.footerRows - fixed.approvalRows;
  let trace = 0;
  let paneRows = 0;
  if (fixed.traceVisible && room >= tracePaneRows(0, 1)) {
    trace = Math.max(1, Math.min(12, Math.floor(rows / 3), room - tracePaneRows(0, 1)));
    paneRows = tracePaneRows(fixed.traceCount, trace);
  }
  return { live: Math.max(0, room - paneRows), trace };
}
