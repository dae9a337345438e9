import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { cleanup, render } from 'ink-testing-library';
import { chatTraces, savedTracesMessage } from '../../../commands/chat/chat-traces.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { SQLiteTraceStore } from '../../../lib/trace/stores/sqlite-trace-store.js';
import { ChatApp } from '../../../tui/chat/ChatApp.js';
import { multiplyTool, scriptedAgent, tick, until } from './helpers.js';

const ENTER = '\r';
const dir = mkdtempSync(join(tmpdir(), 'agentlib-chat-traces-'));
after(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => cleanup());

describe("agentlib chat saves each turn's trace to its trace store", () => {
  test('when the turn ends (a turn waiting on an approval is not saved yet), one trace per turn, a failed turn too', async () => {
    const store = new SQLiteTraceStore(join(dir, 'turns.db'));
    after(() => store.close());
    const saving = chatTraces(store);
    const twoByThree = { toolCalls: [{ toolName: 'multiply', parameters: { a: 2, b: 3 } }] };
    const failure = { error: new ProviderError('upstream exploded', { provider: 'scripted', status: 400 }) };
    const { agent } = scriptedAgent([twoByThree, 'It is 6.', 'Hello again.', failure], [multiplyTool(true)]);
    const ui = render(<ChatApp agent={agent} color={false} agentLabel="tester" provider="scripted" onExit={() => undefined} traces={saving.traces} />);
    const frame = (): string => ui.lastFrame() ?? '';
    const send = async (text: string): Promise<void> => {
      ui.stdin.write(text);
      await tick();
      ui.stdin.write(ENTER);
      await tick();
    };

    await send('2*3?');
    await until(() => frame().includes('Allow multiply'), 'the approval prompt');
    assert.deepEqual(await store.list(), [], 'not finished yet');
    assert.deepEqual(saving.saved, []);

    ui.stdin.write('y');
    await until(() => frame().includes('done in'), 'the first turn to end');
    // Saved before the turn ends: the trace is in the store once the prompt is back.
    const [firstRow] = await store.list();
    assert.equal(firstRow?.status, 'completed');
    assert.equal(firstRow?.agentName, 'tester');
    const first = await store.get(firstRow?.runId ?? '');
    assert.deepEqual(first?.steps.map((step) => step.type), ['llm_call', 'tool_selection', 'tool_execution', 'llm_call']);
    assert.deepEqual(saving.saved, [firstRow?.runId]);

    await send('hi');
    await until(() => (frame().match(/done in/g) ?? []).length === 2, 'the second turn to end');
    await send('fail please');
    await until(() => saving.saved.length === 3, 'the failed turn to be saved');
    const rows = await store.list();
    assert.equal(rows.length, 3);
    assert.equal(new Set(rows.map((row) => row.runId)).size, 3, 'one trace per turn (each turn is a run)');
    const failed = rows.find((row) => row.runId === saving.saved[2]);
    assert.equal(failed?.status, 'error');
  });

  test('the exit message says how many were saved, to which store, and how to look at them', () => {
    assert.equal(savedTracesMessage([], 'sqlite://'), '');
    const one = savedTracesMessage(['run_1'], 'sqlite://');
    assert.equal(one, 'Saved the trace of 1 turn to sqlite:// (the last: run_1). List them with "agentlib trace ls --store sqlite://"; open the latest with "agentlib trace view --store sqlite://".\n');
    assert.match(savedTracesMessage(['run_a', 'run_b'], 'file://traces'), /^Saved the traces of 2 turns to file:\/\/traces \(the last: run_b\)/);
  });

  test('without a trace factory nothing is written (agentlib chat --no-trace-store)', async () => {
    const cwd = join(dir, 'none');
    const { agent } = scriptedAgent(['Hi.']);
    const ui = render(<ChatApp agent={agent} color={false} agentLabel="tester" provider="scripted" onExit={() => undefined} cwd={cwd} />);
    ui.stdin.write('hello');
    await tick();
    ui.stdin.write(ENTER);
    await until(() => (ui.lastFrame() ?? '').includes('done in'), 'the turn to end');
    const store = new SQLiteTraceStore(join(cwd, '.agentlib', 'agentlib.db'));
    after(() => store.close());
    assert.deepEqual(await store.list(), []);
  });
});
