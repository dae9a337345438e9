import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { displayWidth } from '../../../lib/core/display-width.js';
import type { LiveTurn, ToolCard } from '../../../tui/chat/chat-state.js';
import { layoutLive, liveBudget, liveRows, tailRows, type LiveItem } from '../../../tui/chat/live-layout.js';
import { tailToWidth } from '../../../lib/core/display-width.js';
import { wrapSpans, wrapText } from '../../../tui/chat/text-rows.js';

function turn(segments: LiveTurn['segments'], tools: Record<string, ToolCard> = {}): LiveTurn {
  return { runId: 'r', segments, tools, iteration: 1, startedAt: 0, tokensAtStart: 0, costAtStart: 0 };
}

/** The text of a laid-out item's rows (tool cards as their call id). */
function drawn(items: readonly LiveItem[]): string[] {
  return items.map((item) => (item.kind === 'more' ? '…' : item.kind === 'tool' ? `[${item.card.callId}${item.compact ? ' compact' : ''}]` : item.row.prefix + item.row.spans.map((s) => s.text).join('')));
}

describe('text rows', () => {
  test('wrapSpans: greedy by words, long words split, whitespace at breaks dropped, CJK by columns', () => {
    assert.deepEqual(wrapText('the quick brown fox jumps', 10), ['the quick', 'brown fox', 'jumps']);
    assert.deepEqual(wrapText('x'.repeat(25), 10), ['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
    assert.deepEqual(wrapText('ab ' + 'y'.repeat(12), 10), ['ab yyyyyyy', 'yyyyy']);
    assert.deepEqual(wrapText('漢字漢字漢字', 5), ['漢字', '漢字', '漢字']);
    assert.deepEqual(wrapText('  indented\nnext', 20), ['  indented', 'next']);
    assert.deepEqual(wrapText('', 10), ['']);
    const rows = wrapSpans(
      [
        { kind: 'plain', text: 'say ' },
        { kind: 'bold', text: 'very loud' },
        { kind: 'plain', text: ' words' },
      ],
      9,
    );
    assert.deepEqual(rows, [
      [
        { kind: 'plain', text: 'say ' },
        { kind: 'bold', text: 'very' },
      ],
      [{ kind: 'bold', text: 'loud' }],
      [{ kind: 'plain', text: 'words' }],
    ]);
  });

  test('tailToWidth keeps the end that fits, led by an ellipsis', () => {
    assert.equal(tailToWidth('hello world', 20), 'hello world');
    assert.equal(tailToWidth('hello world', 6), '…world');
    assert.equal(tailToWidth('漢字かな', 5), '…かな');
    assert.equal(displayWidth(tailToWidth('漢字かな', 4)), 3, 'a wide character does not fit in the last column');
  });

  test('tailRows: the last rows of streamed Markdown, marked when more is above; a long line is not wrapped whole', () => {
    const text = `# Title\n\n- one item that is long\n\n\`\`\`js\nconst a = 1;\nconst b = 2;\n\`\`\``;
    const all = tailRows(text, 12, 20, false);
    assert.equal(all.more, false);
    assert.deepEqual(
      all.rows.map((r) => r.prefix + r.spans.map((s) => s.text).join('')),
      ['# Title', '', '• one item', '  that is', '  long', '', '  js', '  │ const a', '  │ = 1;', '  │ const b', '  │ = 2;'],
    );
    const last = tailRows(text, 12, 3, false);
    assert.equal(last.more, true);
    assert.deepEqual(last.rows.map((r) => r.prefix + r.spans.map((s) => s.text).join('')), ['  │ = 1;', '  │ const b', '  │ = 2;']);
    const huge = tailRows('z'.repeat(1_000_000), 40, 5, false);
    assert.equal(huge.more, true);
    assert.deepEqual(huge.rows.map((r) => r.spans.map((s) => s.text).join('')), Array.from({ length: 5 }, () => 'z'.repeat(40)));
  });

  test('layoutLive never uses more rows than it is given, at any width', () => {
    const cards: Record<string, ToolCard> = {
      c1: { callId: 'c1', toolName: 'lines', args: { n: 9 }, status: 'success', output: 'a\nb\nc\nd\ne', durationMs: 3 },
      c2: { callId: 'c2', toolName: 'multiply', args: { a: 2, b: 3 }, status: 'running' },
    };
    const live = turn(
      [
        { kind: 'tool', callId: 'c1' },
        { kind: 'tool', callId: 'c2' },
        { kind: 'text', text: `Some **bold** text, 漢字かな交じり文, and a ${'long'.repeat(300)} word.\n\n- a list item\n` },
      ],
      cards,
    );
    for (const width of [10, 17, 40, 80]) {
      for (let maxRows = 0; maxRows <= 30; maxRows++) {
        const items = layoutLive(live, width, maxRows, false);
        assert.ok(liveRows(items) <= maxRows, `${liveRows(items)} rows for ${maxRows} at ${width}`);
        for (const item of items) if (item.kind === 'text') assert.ok(displayWidth(item.row.prefix + item.row.spans.map((s) => s.text).join('')) <= width);
        if (maxRows >= 2) assert.equal(items[0]?.kind, liveRows(layoutLive(live, width, 1000, false)) > maxRows ? 'more' : items[0]?.kind);
      }
    }
    // Short of rows: the newest text first, then cards (compact when their output does not fit).
    assert.deepEqual(drawn(layoutLive(turn([{ kind: 'tool', callId: 'c1' }, { kind: 'text', text: 'tail' }], cards), 40, 3, false)), ['…', '[c1 compact]', 'tail']);
    assert.deepEqual(drawn(layoutLive(turn([{ kind: 'tool', callId: 'c1' }, { kind: 'text', text: 'tail' }], cards), 40, 10, false)), ['[c1]', 'tail']);
  });

  test('liveBudget: the input line, footer, approval prompt, trace pane and live turn add up to at most rows-1', () => {
    for (const rows of [8, 12, 24, 40]) {
      for (const approvalRows of [0, 8, 9]) {
        for (const traceVisible of [false, true]) {
          const footerRows = rows < 20 ? 4 : 2;
          const budget = liveBudget(rows, { footerRows, approvalRows, traceVisible, traceCount: 50 });
          const pane = budget.trace > 0 ? 3 + budget.trace : 0;
          const total = budget.live + pane + 2 + footerRows + approvalRows;
          if (2 + footerRows + approvalRows <= rows - 1) assert.ok(total <= rows - 1, `${total} rows of ${rows} (approval ${approvalRows}, trace ${String(traceVisible)})`);
          assert.ok(budget.live >= 0);
        }
      }
    }
    assert.deepEqual(liveBudget(24, { footerRows: 2, approvalRows: 0, traceVisible: true, traceCount: 50 }), { live: 8, trace: 8 });
    assert.deepEqual(liveBudget(12, { footerRows: 4, approvalRows: 0, traceVisible: false, traceCount: 0 }), { live: 5, trace: 0 });
  });
});
