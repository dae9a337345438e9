import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PendingMarks } from '../../../lib/cache/pending-marks.js';

describe('PendingMarks', () => {
  test('take() returns the keys least recently marked first; a re-mark moves a key last', () => {
    const marks = new PendingMarks();
    for (const key of ['a', 'b', 'c', 'a', 'd', 'b']) marks.mark(key);
    assert.equal(marks.size, 4);
    assert.deepEqual(marks.take(2), ['c', 'a']);
    marks.mark('c');
    assert.deepEqual(marks.take(), ['d', 'b', 'c']);
    assert.equal(marks.size, 0);
  });

  test('restore() puts keys back as older than every current mark; a key marked meanwhile keeps its newer mark', () => {
    const marks = new PendingMarks();
    for (const key of ['a', 'b', 'c']) marks.mark(key);
    const taken = marks.take();
    marks.mark('x');
    marks.mark('b');
    marks.restore(taken);
    assert.deepEqual(marks.take(), ['a', 'c', 'x', 'b']);
    marks.mark('y');
    marks.delete('y');
    marks.mark('z');
    marks.clear();
    assert.deepEqual(marks.take(), []);
  });
});
