import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { cleanup, render } from 'ink-testing-library';
import { chatTraces, savedTracesMessage } from '../../../commands/chat/chat-traces.js';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { ChatApp } from '../../../tui/chat/ChatApp.js';
import { multiplyTool, scriptedAgent, tick, until } from './helpers.js';

const ENTER = '\r';
const dir = mkdtempSync(join(tmpdir(), 'agentlib-chat-traces-'));
after(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => cleanup());

/** The traces under `<cwd>/.agentlib/traces`, read. */
function savedTraces(cwd: string): AgentTrace[] {
  const traces = join(cwd, '.agentlib', 'traces');
  let names: string[];
  try {
    names = readdirSync(traces);
  } catch {
    return [];
  }
  return names.map((name) => AgentTrace.fromJSONL(readFileSync(join(traces, name), 'utf8')));
}

describe('agentlib chat saves each turn\'s trace', () => {
  test('as the turn runs (a turn waiting on an approval is on disk, incomplete), then whole; one file per turn', async () => {
    const cwd = join(dir, 'turns');
    const saving = chatTraces(cwd);
    const twoByThree = { toolCalls: [{ toolName: 'multiply', parameters: { a: 2, b: 3 } }] };
    const { agent } = scriptedAgent([twoByThree, 'It is 6.', 'Hello again.'], [multiplyTool(true)]);
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
    await until(() => savedTraces(cwd)[0]?.steps.some((step) => step.type === 'tool_selection') === true, 'the partial trace on disk');
    const partial = savedTraces(cwd)[0];
    assert.equal(partial?.incomplete, true);
    assert.equal(partial?.agentName, 'tester');
    assert.deepEqual(saving.saved, [], 'not finished yet');

    ui.stdin.write('y');
    await until(() => frame().includes('done in'), 'the first turn to end');
    const [first] = savedTraces(cwd);
    assert.equal(first?.incomplete, undefined);
    assert.equal(first?.status, 'completed');
    assert.deepEqual(first?.steps.map((step) => step.type), ['llm_call', 'tool_selection', 'tool_execution', 'llm_call']);
    assert.equal(saving.saved.length, 1);
    assert.equal(saving.saved[0], join('.agentlib', 'traces', `${first?.runId}.jsonl`));

    await send('hi');
    await until(() => (frame().match(/done in/g) ?? []).length === 2, 'the second turn to end');
    const runIds = savedTraces(cwd).map((trace) => trace.runId);
    assert.equal(runIds.length, 2);
    assert.equal(saving.saved.length, 2);
    assert.equal(new Set(runIds).size, 2, 'one trace per turn (each turn is a run)');
  });

  test('the exit message says how many were saved, where, and how to look at them', () => {
    assert.equal(savedTracesMessage([]), '');
    const one = savedTracesMessage([join('.agentlib', 'traces', 'run_1.jsonl')]);
    assert.match(one, /^Saved the trace of 1 turn in \.agentlib\/traces \(the last: \.agentlib\/traces\/run_1\.jsonl\)\. List them with "agentlib trace ls"; open the latest with "agentlib trace view"\.\n$/);
    assert.match(savedTracesMessage(['a.jsonl', 'b.jsonl']), /^Saved the traces of 2 turns in .*\(the last: b\.jsonl\)/);
  });

  test('without a trace factory nothing is written (agentlib chat --no-trace)', async () => {
    const cwd = join(dir, 'none');
    const { agent } = scriptedAgent(['Hi.']);
    const ui = render(<ChatApp agent={agent} color={false} agentLabel="tester" provider="scripted" onExit={() => undefined} cwd={cwd} />);
    ui.stdin.write('hello');
    await tick();
    ui.stdin.write(ENTER);
    await until(() => (ui.lastFrame() ?? '').includes('done in'), 'the turn to end');
    assert.deepEqual(savedTraces(cwd), []);
  });
});
