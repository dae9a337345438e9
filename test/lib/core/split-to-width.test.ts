import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { displayWidth } from '../../../lib/core/display-width.js';
import { splitToWidth } from '../../../lib/core/split-to-width.js';

describe('splitToWidth', () => {
  test('ASCII is sliced every `width` characters', () => {
    assert.deepEqual(splitToWidth('abcdefg', 3), ['abc', 'def', 'g']);
    assert.deepEqual(splitToWidth('', 3), []);
  });

  test('wide characters count two columns and are never split; graphemes stay whole', () => {
    assert.deepEqual(splitToWidth('天気予報です', 5), ['天気', '予報', 'です']);
    assert.deepEqual(splitToWidth('a天気', 2), ['a', '天', '気']);
    assert.deepEqual(splitToWidth('e\u0301e\u0301e\u0301', 2), ['e\u0301e\u0301', 'e\u0301'], 'a letter with its combining mark is one column');
    assert.deepEqual(splitToWidth('👨‍👩‍👧x', 1), ['👨‍👩‍👧', 'x'], 'a grapheme wider than the width gets a piece of its own');
    for (const piece of splitToWidth('東京は晴れ、最高気温は二十五度です。mixed text 混在', 7)) assert.ok(displayWidth(piece) <= 7, piece);
  });
});
