// `agentlib chat` end to end in a real terminal (tmux), offline on the calculator's cassette: the
// turn's trace is saved to the default trace store (SQLite .agentlib/agentlib.db), and on exit the
// chat says where.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SQLiteTraceStore } from '../../../lib/trace/stores/sqlite-trace-store.js';
import { repoRoot } from '../../support/cli-build.js';
import { requires } from '../../support/requirements.js';
import { waitFor } from '../../support/tmux.js';
import { QUESTION } from '../../commands/run-helpers.js';
import { chatInTmux } from './chat-tmux.js';

describe('agentlib chat saves its traces and says where (tmux)', requires('tmux'), () => {
  const chat = chatInTmux('chat-traces');
  const { pane, line } = chat;

  test('a turn on the recorded cassette is saved to sqlite:// (.agentlib/agentlib.db); the exit message names it and trace ls / view --store', async () => {
    const cassette = join(repoRoot, 'examples', 'calculator', 'cassette.jsonl');
    const { project } = chat;
    const exitFile = join(project.dir, 'exit-code');
    chat.start(cassette, exitFile, 160, 40);
    await waitFor(() => pane().includes('Ask something'), 'the input line', 30_000);
    line(QUESTION);
    await waitFor(() => pane().includes('done in'), 'the answer', 30_000);
    line('/exit');
    await waitFor(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').trim() !== '', 'the chat to exit', 30_000);
    assert.equal(readFileSync(exitFile, 'utf8').trim(), '0');

    const store = new SQLiteTraceStore(join(project.dir, '.agentlib', 'agentlib.db'));
    try {
      const rows = await store.list();
      assert.equal(rows.length, 1);
      const trace = await store.get(rows[0]?.runId ?? '');
      assert.equal(trace?.status, 'completed');
      assert.equal(trace?.incomplete, undefined);
      assert.ok(trace?.steps.some((step) => step.type === 'tool_execution' && step.name === 'multiply'));
      await waitFor(() => pane().includes('Saved the trace of 1 turn'), 'the exit message', 10_000);
      const message = `Saved the trace of 1 turn to sqlite:// (the last: ${rows[0]?.runId ?? ''}). List them with "agentlib trace ls --store sqlite://"; open the latest with "agentlib trace view --store sqlite://".`;
      assert.ok(pane().replace(/\n/g, '').includes(message), pane());
    } finally {
      await store.close();
    }
  });
});
