import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fit, formatCost, formatDuration, formatTokens, stepGlyph } from '../../../tui/trace-viewer/format.js';
import { viewerLayout } from '../../../tui/trace-viewer/layout.js';
import { barSpan, barText } from '../../../tui/trace-viewer/waterfall.js';
import { step } from './traces.js';

describe('waterfall', () => {
  test('bars are scaled to the run duration; parallel steps start in the same cell', () => {
    // A 400 ms run on 40 cells: 10 ms a cell.
    assert.deepEqual(barSpan(1000, 100, 1000, 400, 40), { start: 0, width: 10 });
    const a = barSpan(1120, 100, 1000, 400, 40);
    const b = barSpan(1120, 30, 1000, 400, 40);
    assert.equal(a.start, b.start, 'parallel tool calls line up');
    assert.deepEqual([a, b], [{ start: 12, width: 10 }, { start: 12, width: 3 }]);
    assert.deepEqual(barSpan(1390, 10, 1000, 400, 40), { start: 39, width: 1 });
  });

  test('instant, overflowing and degenerate steps stay inside the column', () => {
    assert.deepEqual(barSpan(1200, 0, 1000, 400, 40), { start: 20, width: 1 });
    assert.deepEqual(barSpan(1400, 0, 1000, 400, 40), { start: 39, width: 1 }, 'a marker at the very end');
    assert.deepEqual(barSpan(900, 1000, 1000, 400, 40), { start: 0, width: 40 }, 'clamped');
    assert.deepEqual(barSpan(1000, 0, 1000, 0, 10), { start: 0, width: 1 }, 'zero-length run');
    assert.deepEqual(barSpan(1000, 10, 1000, 100, 0), { start: 0, width: 0 });
    assert.equal(barText({ start: 2, width: 3 }, 8, false), '  ███   ');
    assert.equal(barText({ start: 7, width: 1 }, 8, true), '       ┃');
  });
});

describe('format', () => {
  test('durations, tokens and cost', () => {
    assert.deepEqual([0, 850, 1250, 12_500, 125_000].map(formatDuration), ['0ms', '850ms', '1.25s', '12.5s', '2m05s']);
    assert.deepEqual([950, 1234, 12_345, 3_400_000].map(formatTokens), ['950', '1.2k', '12k', '3.4M']);
    assert.deepEqual([undefined, 0, 0.0012, 0.5, 12.5].map(formatCost), ['', '', '$0.0012', '$0.50', '$12.50']);
    assert.equal(fit('abcdef', 4), 'abc…');
    assert.equal(fit('ab', 4, true), 'ab  ');
  });

  test('status glyphs: ✓ ok, x error, ? awaiting review, ⊷ running', () => {
    assert.equal(stepGlyph(step({ id: 'a', type: 'llm_call' })), '✓');
    assert.equal(stepGlyph(step({ id: 'a', type: 'tool_execution', status: 'error' })), 'x');
    assert.equal(stepGlyph(step({ id: 'a', type: 'tool_selection', metadata: { policy: [{ decision: 'review' }] } })), '?');
    assert.equal(stepGlyph(step({ id: 'a', type: 'tool_execution', metadata: { incomplete: true } })), '⊷');
  });

  test('the layout fits the terminal', () => {
    const layout = viewerLayout(100, 30);
    assert.equal(layout.width, 99);
    assert.equal(layout.height, 29);
    assert.equal(layout.treeRows + layout.detailRows + 6, layout.height);
    assert.equal(layout.labelWidth + layout.barWidth + 26, layout.width);
    assert.equal(viewerLayout(100, 30, 3).treeRows, 4, 'a short trace leaves the room to the details');
  });
});
