// The chat on a small terminal through Ink's real (throttled) renderer: the live region — what Ink
// redraws on every frame — must stay shorter than the terminal, or Ink clears the whole screen
// and reprints everything on each frame (flicker, lost scrollback).
// Ink reads CI once, when it is first imported (lazily, by runChat): this file must not import
// anything that imports ink before these lines run.
delete process.env['CI'];
delete process.env['CONTINUOUS_INTEGRATION'];

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { displayWidth } from '../../../lib/core/display-width.js';
import { runChat } from '../../../tui/chat/run-chat.js';
import { waitFor } from '../../support/tmux.js';
import { fakeTerminal, type FakeStdout } from '../support/fake-terminal.js';
import { multiplyTool, scriptedAgent } from './helpers.js';

const BSU = '\u001b[?2026h';
const ESU = '\u001b[?2026l';
const CSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const CLEAR_TERMINAL = '\u001b[2J';

/**
 * The live frames Ink drew: each synchronized update (BSU … ESU) ends with the live region's
 * text (static output, when there is any, is written before it in the same update).
 */
function liveFrames(stdout: FakeStdout): string[][] {
  const frames: string[][] = [];
  let update: string[] | undefined;
  for (const write of stdout.writes) {
    if (write === BSU) update = [];
    else if (write === ESU) {
      const text = update?.map((w) => w.replace(CSI, '')).filter((w) => w !== '').at(-1);
      if (text !== undefined) frames.push(text.replace(/\n$/, '').split('\n'));
      update = undefined;
    } else update?.push(write);
  }
  return frames;
}

/** What Ink printed above the live region (<Static>): the text written before each update's live frame. */
function staticOutput(stdout: FakeStdout): string {
  let out = '';
  let update: string[] | undefined;
  for (const write of stdout.writes) {
    if (write === BSU) update = [];
    else if (write === ESU) {
      const texts = (update ?? []).map((w) => w.replace(CSI, '')).filter((w) => w !== '');
      out += texts.slice(0, -1).join('');
      update = undefined;
    } else update?.push(write);
  }
  return out;
}

function start(agent: Parameters<typeof runChat>[0], columns: number, rows: number) {
  const { stdin, stdout, streams } = fakeTerminal(columns, rows);
  const done = runChat(agent, { ...streams, stderr: streams.stdout, color: false, agentLabel: 'tester', model: 'gpt-4o-mini', provider: 'scripted' });
  const quit = async (): Promise<number> => {
    stdin.press('\u0003');
    stdin.press('\u0003');
    return done;
  };
  return { stdin, stdout, quit };
}

function assertFramesFit(stdout: FakeStdout, columns: number, rows: number): string[][] {
  const frames = liveFrames(stdout);
  assert.ok(frames.length > 5, `${frames.length} frames`);
  for (const [i, frame] of frames.entries()) {
    assert.ok(frame.length <= rows - 1, `frame ${i} is ${frame.length} rows on a ${rows}-row terminal:\n${frame.join('\n')}`);
    for (const row of frame) assert.ok(displayWidth(row) <= columns, `a row wider than ${columns} columns: ${row}`);
  }
  assert.ok(!stdout.output.includes(CLEAR_TERMINAL), 'Ink never had to clear the screen');
  return frames;
}

describe('the live region on a small terminal', () => {
  test('40x12, a 2,000-character unbroken paragraph: every live frame is at most rows-1 rows; the answer is printed once in full', async () => {
    const answer = 'x'.repeat(2000);
    const { agent } = scriptedAgent([{ text: answer, chunks: answer.match(/.{1,40}/g) ?? [], chunkDelayMs: 20 }]);
    const chat = start(agent, 40, 12);
    await waitFor(() => chat.stdout.output.includes('Ask something'), 'the input line', 10_000);
    chat.stdin.press('go');
    chat.stdin.press('\r');
    await waitFor(() => chat.stdout.output.includes('done in'), 'the answer', 30_000);
    assert.equal(await chat.quit(), 0);
    const frames = assertFramesFit(chat.stdout, 40, 12);
    const streaming = frames.filter((frame) => frame[0]?.startsWith('… more above'));
    assert.ok(streaming.length > 0, 'frames of the streaming tail show that more is above');
    for (const frame of streaming) {
      // The budget is used exactly: "more above", rows of the answer, the input line and the footer.
      assert.equal(frame.length, 11, frame.join('\n'));
      const answerRows = frame.filter((row) => /^x+$/.test(row));
      assert.equal(answerRows.length, frame.length - 1 - 2 - frame.slice(frame.indexOf('') + 2).length);
      assert.ok(answerRows.slice(0, -1).every((row) => row.length === 40), 'full rows of 40 columns above the last');
    }
    // Printed once into the transcript (wrapped at 40 columns), not left in the live region.
    const printed = staticOutput(chat.stdout);
    assert.equal(printed.match(/^x{40}$/gm)?.length, 2000 / 40);
    assert.equal(printed.match(/x/g)?.length, 2000);
  });

  // Also the wiring of Ink's onRender to the prompt's frame counter: the prompt takes keys only
  // after a frame has drawn it, so without the wiring the 'y' would never be taken.
  test('40x24, wide (CJK) text, an approval prompt with long arguments and the trace pane still fit; y after the prompt is drawn approves', async () => {
    const wide = '漢字かな交じり文'.repeat(120);
    const { agent, provider } = scriptedAgent(
      [{ text: wide, chunkDelayMs: 5, toolCalls: [{ toolName: 'multiply', parameters: { a: 1234, b: 5678 } }] }, 'It is big.'],
      [multiplyTool(true)],
    );
    const chat = start(agent, 40, 24);
    await waitFor(() => chat.stdout.output.includes('Ask something'), 'the input line', 10_000);
    chat.stdin.press('/trace');
    chat.stdin.press('\r');
    await waitFor(() => chat.stdout.output.includes('no run yet'), 'the trace pane', 10_000);
    chat.stdin.press('go');
    chat.stdin.press('\r');
    await waitFor(() => chat.stdout.output.includes('Allow multiply'), 'the approval prompt', 30_000);
    chat.stdin.press('y');
    await waitFor(() => chat.stdout.output.includes('done in'), 'the answer', 30_000);
    assert.equal(await chat.quit(), 0);
    const frames = assertFramesFit(chat.stdout, 40, 24);
    const asking = frames.filter((frame) => frame.some((row) => row.includes('Allow multiply')));
    assert.ok(asking.length > 0);
    for (const frame of asking) {
      assert.equal(frame.length, 23, 'the prompt, the trace pane, the live turn and the footer fill rows-1 exactly');
      // The arguments are cut to the prompt's width; the header stays one row.
      assert.ok(frame.includes('│ ? Allow multiply({"a":1234,"b":56…)? │'), frame.join('\n'));
      assert.ok(frame.some((row) => /^┌─+┐$/.test(row)) && frame.some((row) => row.startsWith('│ trace')), 'the trace pane is drawn with the prompt');
    }
    assert.match(JSON.stringify(provider.requests[1]?.messages), /"role":"tool","content":"7006652"/);
  });
});
