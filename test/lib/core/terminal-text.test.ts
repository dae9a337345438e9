import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sanitizeForTerminal } from '../../../lib/core/terminal-text.js';

test('escape sequences and control characters are removed; text, newlines and unicode stay', () => {
  const hostile = 'Hi \u001b]52;c;aGVsbG8=\u0007 \u001b]0;title\u001b\\\u001b[5mblink\u001b[0m \u001b[2J\u001bPdcs\u001b\\ \u009b31mc1\u0007bell';
  assert.equal(sanitizeForTerminal(hostile), 'Hi  blink  c1bell');
  assert.equal(sanitizeForTerminal('a\r\nb\rc\td'), 'a\nb c d');
  assert.equal(sanitizeForTerminal('plain 文字 ✓\nline'), 'plain 文字 ✓\nline');
  assert.equal(sanitizeForTerminal('\u0000nul\u0008bs\u007fdel'), 'nulbsdel');
  assert.ok(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(sanitizeForTerminal(hostile + '\u001b')));
});
