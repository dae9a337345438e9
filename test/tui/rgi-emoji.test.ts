import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isRgiEmoji } from '../../tui/rgi-emoji.js';

const RGI = new RegExp('^\\p{RGI_Emoji}$', 'v');

describe('isRgiEmoji', () => {
  test('answers like /^\\p{RGI_Emoji}$/v for every code point of planes 0-2 and 14, alone, with VS16 or a skin tone', () => {
    let emoji = 0;
    const modifierBase = /\p{Emoji_Modifier_Base}/u;
    for (let cp = 0; cp <= 0xe0fff; cp++) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || (cp > 0x2ffff && cp < 0xe0000)) continue;
      const char = String.fromCodePoint(cp);
      for (const segment of modifierBase.test(char) ? [char, `${char}\uFE0F`, `${char}\u{1F3FD}`] : [char, `${char}\uFE0F`]) {
        const expected = RGI.test(segment);
        if (isRgiEmoji(segment) !== expected) assert.fail(`U+${cp.toString(16)} as ${JSON.stringify(segment)}: expected ${String(expected)}`);
        if (expected) emoji++;
      }
    }
    assert.ok(emoji > 1500, 'the RGI set was exercised');
  });

  test('answers like the regex for keycaps, flags, tag and ZWJ sequences and non-emoji clusters', () => {
    const samples = ['#️⃣', '1️⃣', '1⃣', '🇫🇷', '🇫', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '👩‍💻', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🏳‍🌈', '❤️‍🔥', '👁️‍🗨️', '🧑🏽‍🚀', 'e\u0301', '각', '─', '✓', '▾', '©', '©️', '™', '1', '#', 'a\u200db'];
    for (const segment of samples) assert.equal(isRgiEmoji(segment), RGI.test(segment), JSON.stringify(segment));
  });
});
