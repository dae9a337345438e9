// `agentlib chat --replay` end to end (issue 13 item 3): the built binary in a real terminal
// (tmux), no network. The recorded question is answered again, after /reset and without; a question the
// cassette does not hold shows the cassette and the first difference, and the chat goes on.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { requires } from '../../support/requirements.js';
import { waitFor } from '../../support/tmux.js';
import { QUESTION } from '../../commands/run-helpers.js';
import { chatInTmux } from './chat-tmux.js';

describe('agentlib chat --replay in a real terminal (tmux)', requires('tmux'), () => {
  const chat = chatInTmux('chat-replay');
  const { pane, line } = chat;

  test('the same question again (after /reset, and without) is answered from one recording; an unrecorded one names the difference', async () => {
    const { project } = chat;
    const cassette = join(project.dir, 'calculator', 'cassette.jsonl');
    const exitFile = join(project.dir, 'exit-replay');
    chat.start(cassette, exitFile, 160, 50);
    const count = (text: string): number => pane().split(text).length - 1;

    await waitFor(() => pane().includes('Ask something'), 'the input line', 30_000);
    line(QUESTION);
    await waitFor(() => count('done in') === 1, 'the first answer', 30_000);
    assert.match(pane(), /2,869,461/);
    line('/reset');
    await waitFor(() => pane().includes('conversation reset'), 'the reset', 30_000);
    line(QUESTION);
    await waitFor(() => count('done in') === 2 || pane().includes('error in'), 'the second answer', 30_000);
    assert.equal(count('done in'), 2, pane());
    assert.doesNotMatch(pane(), /more provider calls than the cassette holds/);
    // And once more in the same conversation, no /reset: the recorded turn answers it again.
    line(QUESTION);
    await waitFor(() => count('done in') === 3 || pane().includes('error in'), 'the third answer', 30_000);
    assert.equal(count('done in'), 3, pane());

    line('What is 2 * 3?');
    await waitFor(() => pane().includes('error in'), 'the failed turn', 30_000);
    const text = pane().replace(/\s*\n\s*/g, ' ');
    assert.ok(text.includes('cassette.jsonl: provider call'), text);
    assert.match(text, /differs at messages\[\d\]/);
    line('/exit');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the chat to exit', 30_000);
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0');
  });
});
