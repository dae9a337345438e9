import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { displayWidth } from '../../../lib/core/display-width.js';
import { wrap } from '../../../tui/trace-viewer/detail-lines.js';
import { fit, stepGlyph } from '../../../tui/trace-viewer/format.js';
import { viewerLayout } from '../../../tui/trace-viewer/layout.js';
import { step } from './traces.js';

describe('format', () => {
  test('fit cuts and pads by terminal columns', () => {
    assert.equal(fit('abcdef', 4), 'abc…');
    assert.equal(fit('ab', 4, true), 'ab  ');
    // CJK characters take two columns each: 検索ツール is 10 columns.
    assert.equal(fit('検索ツール', 6), '検索…');
    assert.equal(displayWidth(fit('検索ツール', 6, true)), 6);
    assert.equal(fit('検索ツール', 6, true), '検索… ');
    assert.equal(displayWidth(fit('a検索', 4, true)), 4, 'a wide character that does not fit is left out, not split');
  });

  test('detail wrapping never splits a wide character or goes past the width', () => {
    const lines = wrap('天気予報ツールの結果: 東京は晴れ、最高気温は二十五度です。\nplain ascii line that is long', 11);
    for (const line of lines) assert.ok(displayWidth(line) <= 11, `${line} fits 11 columns`);
    assert.equal(lines.join(''), '天気予報ツールの結果: 東京は晴れ、最高気温は二十五度です。plain ascii line that is long');
    assert.deepEqual(wrap('天気予報', 5), ['天気', '予報']);
    assert.deepEqual(wrap('a\n\nb', 5), ['a', '', 'b']);
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
