import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutToWidth, displayWidth, fitToWidth } from '../../../lib/core/display-width.js';

describe('displayWidth', () => {
  it('counts wide characters as two columns and escape sequences as none', () => {
    assert.equal(displayWidth('abc'), 3);
    assert.equal(displayWidth('日本語'), 6);
    assert.equal(displayWidth('\u001b[31mred\u001b[39m'), 3);
    assert.equal(displayWidth('e\u0301'), 1);
  });
});

describe('cutToWidth', () => {
  it('returns text that fits unchanged', () => {
    assert.equal(cutToWidth('日本', 4), '日本');
  });
  it('cuts by columns, never past the width, and marks the cut', () => {
    const cut = cutToWidth('日本語のテキスト', 7);
    assert.equal(cut, '日本語…');
    assert.ok(displayWidth(cut) <= 7);
  });
  it('does not split a grapheme', () => {
    const family = '👨‍👩‍👧';
    const cut = cutToWidth(`${family}${family}${family}`, 5);
    assert.equal(cut, `${family}${family}…`);
    assert.equal(cutToWidth('e\u0301e\u0301e\u0301e\u0301', 3), 'e\u0301e\u0301…');
  });
  it('gives nothing for no room', () => {
    assert.equal(cutToWidth('abc', 0), '');
  });
});

describe('fitToWidth', () => {
  it('pads to exactly the width in columns', () => {
    assert.equal(fitToWidth('日本', 6), '日本  ');
    assert.equal(displayWidth(fitToWidth('日本語のテキスト', 7)), 7);
  });
});
