import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { barSpan, barText } from '../../../lib/trace/waterfall.js';

describe('waterfall', () => {
  test('bars are scaled to the run duration; parallel steps start in the same cell', () => {
    // A 400 ms run on 40 cells: 10 ms a cell.
    assert.deepEqual(barSpan(0, 100, 400, 40), { start: 0, width: 10 });
    const a = barSpan(120, 100, 400, 40);
    const b = barSpan(120, 30, 400, 40);
    assert.equal(a.start, b.start, 'parallel tool calls line up');
    assert.deepEqual([a, b], [{ start: 12, width: 10 }, { start: 12, width: 3 }]);
    assert.deepEqual(barSpan(390, 10, 400, 40), { start: 39, width: 1 });
  });

  test('exact cell boundaries do not spill into the next cell (integer ms scale exactly)', () => {
    // 28 ms of 100 on 25 cells ends at cell 7 exactly: (28 / 100) * 25 is 7.000000000000001 (the old
    // `trace show` bar took 8 cells), 25 * (28 / 100) likewise (the old viewer bar); 28 * 25 / 100 is 7.
    assert.deepEqual(barSpan(0, 28, 100, 25), { start: 0, width: 7 });
    assert.deepEqual(barSpan(0, 25, 100, 28), { start: 0, width: 7 });
  });

  test('instant, overflowing and degenerate steps stay inside the column', () => {
    assert.deepEqual(barSpan(200, 0, 400, 40), { start: 20, width: 1 });
    assert.deepEqual(barSpan(400, 0, 400, 40), { start: 39, width: 1 }, 'a marker at the very end');
    assert.deepEqual(barSpan(-100, 1000, 400, 40), { start: 0, width: 40 }, 'clamped');
    assert.deepEqual(barSpan(0, 0, 0, 10), { start: 0, width: 1 }, 'zero-length run');
    assert.deepEqual(barSpan(0, 10, 100, 0), { start: 0, width: 0 });
  });

  test('bar text: padded to the column for the viewer, unpadded with other glyphs for trace show', () => {
    assert.equal(barText({ start: 2, width: 3 }, 8, false), '  ███   ');
    assert.equal(barText({ start: 7, width: 1 }, 8, true), '       ┃');
    assert.equal(barText({ start: 2, width: 3 }, 8, false, { full: '#', instant: '|' }, false), '  ###');
    assert.equal(barText({ start: 1, width: 1 }, 8, true, { full: '#', instant: '|' }, false), ' |');
    assert.equal(barText({ start: 0, width: 0 }, 0, false), '');
  });
});
