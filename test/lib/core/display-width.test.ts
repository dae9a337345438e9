import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import stringWidth from 'string-width';
import { cutToWidth, displayWidth, fitToWidth, stringWidthCompatible } from '../../../lib/core/display-width.js';

/** Text where grapheme context matters: emoji sequences, flags, Hangul jamo, marks, controls, ANSI. */
const MIXED = [
  '', 'plain ascii', '\t tab and \u0000 nul', 'line\r\nbreak', '├─ ✓ tool_execution ─ 120ms ▾ · …', '日本語のテキスト', 'ｶﾞｷﾞ ﾞﾟ ｰ',
  'e\u0301 a\u0308\u0323', '👨‍👩‍👧 👩🏽‍💻 🏳️‍🌈 🏳‍🌈 ❤️‍🔥', '🇫🇷🇩🇪🇺', '🇫', '#️⃣ 1⃣ 9️⃣', '©️ © ™ ▶️ ▶ ◽ ✔️ ✔', '\u1100\u1161\u11a8 \u1100\u1100\u1161 \u1161\u11a8 각',
  '\u200b\u200d\ufeff\u00ad zero width', '\u0e01\u0e33 \u0915\u094d\u0937 ह\u093f', '\u001b[31mred\u001b[39m ✓ 日本', '\u009b31mcsi', 'a\ud800b', '\ud83d',
];

describe('displayWidth, grapheme by grapheme with a cache', () => {
  it('gives string-width\'s answer for every text, measured cold and again from the cache', () => {
    for (const round of ['cold', 'cached']) {
      for (const text of MIXED) assert.equal(displayWidth(text), stringWidth(text), `${round}: ${JSON.stringify(text)}`);
      const joined = MIXED.join(' ');
      assert.equal(displayWidth(joined), stringWidth(joined), `${round}: all of it`);
    }
  });

  it('stringWidthCompatible stands in for string-width, options included', () => {
    for (const text of MIXED) {
      assert.equal(stringWidthCompatible(text), stringWidth(text));
      assert.equal(stringWidthCompatible(text, { ambiguousIsNarrow: false }), stringWidth(text, { ambiguousIsNarrow: false }));
      assert.equal(stringWidthCompatible(text, { countAnsiEscapeCodes: true }), stringWidth(text, { countAnsiEscapeCodes: true }));
    }
  });
});

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
