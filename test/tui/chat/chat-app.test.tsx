import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import chalk from 'chalk';
import { cleanup, render } from 'ink-testing-library';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { tool } from '../../../lib/tools/tool.js';
import { ScriptedProvider, type ScriptedProviderOptions } from '../../../lib/providers/scripted.js';
import type { ProviderRequest, StreamPart } from '../../../lib/providers/spec.js';
import { ChatApp, type ChatAppProps } from '../../../tui/chat/ChatApp.js';
import { FrameCounter } from '../../../tui/chat/frame-counter.js';
import { press } from '../../support/ink-act.js';
import { linesTool, multiplyTool, scriptedAgent, tick, until, virtualClock } from './helpers.js';

const ENTER = '\r';
const ESC = '\u001B';
const UP = '\u001B[A';
const DOWN = '\u001B[B';
const CTRL_C = '\u0003';
const CTRL_O = '\u000F';
const CTRL_U = '\u0015';

function mount(agent: Agent, extra: Partial<ChatAppProps> = {}) {
  const exits: number[] = [];
  const ui = render(<ChatApp agent={agent} color={false} agentLabel="tester" provider="scripted" onExit={(code) => exits.push(code)} {...extra} />);
  const frame = (): string => ui.lastFrame() ?? '';
  // Each key is handled and rendered under act() before the next (no sleep to let Ink settle).
  const type = (text: string): Promise<void> => press(ui.stdin, text);
  const send = async (text: string): Promise<void> => {
    await type(text);
    await type(ENTER);
  };
  const waitFor = (text: string | RegExp, what = String(text)): Promise<void> => until(() => (typeof text === 'string' ? frame().includes(text) : text.test(frame())), what);
  return { ui, frame, type, send, waitFor, exits };
}

/** A frame without its colour and style escapes. */
const stripAnsi = (text: string): string => text.replace(/\u001B\[[0-9;]*m/g, '');

/** The text of every message of a provider request. */
function messagesText(request: ProviderRequest | undefined): string {
  return JSON.stringify(request?.messages ?? []);
}

const twoByThree = { toolCalls: [{ toolName: 'multiply', parameters: { a: 2, b: 3 } }] };
/** Two multiply calls in one reply (their approvals queue). */
const twoProducts = {
  toolCalls: [
    { toolName: 'multiply', parameters: { a: 2, b: 3 } },
    { toolName: 'multiply', parameters: { a: 4, b: 5 } },
  ],
};

afterEach(() => cleanup());

/** The usage scriptedAgent's provider reports (100 prompt + 20 completion tokens). */
const USAGE = { promptTokens: 100, completionTokens: 20, totalTokens: 120 };

/** A promise the test resolves when it chooses. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A ScriptedProvider whose text deltas each take `msPerDelta` of a virtual clock. */
class ClockedProvider extends ScriptedProvider {
  readonly #clock: { advance: (ms: number) => void };
  readonly #msPerDelta: number;

  constructor(options: ScriptedProviderOptions, clock: { advance: (ms: number) => void }, msPerDelta: number) {
    super(options);
    this.#clock = clock;
    this.#msPerDelta = msPerDelta;
  }

  override async *stream(request: ProviderRequest): AsyncGenerator<StreamPart, void, undefined> {
    for await (const part of super.stream(request)) {
      if (part.type === 'text-delta') this.#clock.advance(this.#msPerDelta);
      yield part;
    }
  }
}

describe('ChatApp', () => {
  test('typing a prompt and Enter streams the answer; the turn ends in the transcript', async () => {
    const answer = 'The capital of France is Paris, a city on the Seine.';
    const { agent, provider } = scriptedAgent([{ text: answer, chunkDelayMs: 15 }]);
    const chat = mount(agent);
    await chat.waitFor(/tester · scripted\/gpt-4o-mini · 0 tokens/, 'the footer');
    await chat.send('What is the capital of France?');
    await chat.waitFor('done in', 'the turn to end');
    // While streaming, the line under the prompt was a proper prefix of the answer.
    const partial = chat.ui.frames
      .map((f) => f.split('› What is the capital of France?\n')[1]?.split('\n')[0])
      .find((line) => line !== undefined && line.startsWith('The capital') && line !== answer);
    assert.ok(partial !== undefined && answer.startsWith(partial), `a frame with a partial answer: ${String(partial)}`);
    assert.match(chat.frame(), /^\n› What is the capital of France\?\nThe capital of France is Paris, a city on the Seine\.\ndone in /m);
    assert.equal(chat.frame().split(answer).length - 1, 1, 'the answer is shown once (static only, not also live)');
    assert.equal(provider.requests.length, 1);
    assert.match(chat.frame(), /120 tokens/);
  });

  test('Markdown is rendered: lists, code blocks, bold', async () => {
    const { agent } = scriptedAgent(['# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n```ts\nconst x = 1;\n```']);
    const chat = mount(agent);
    await chat.send('show me');
    await chat.waitFor('done in');
    const out = chat.frame();
    assert.match(out, /# Title/);
    assert.match(out, /Some bold and `code`\./);
    assert.match(out, /• one\n• two/);
    assert.match(out, /│ const x = 1;/);
  });

  test('a review-gated tool shows the approval prompt; y approves and the card ends ✓', async () => {
    const { agent, provider } = scriptedAgent([twoByThree, 'It is 6.'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply({"a":2,"b":3})?');
    assert.match(chat.frame(), /\? multiply\(a=2, b=3\) awaiting approval/);
    assert.match(chat.frame(), /│ 1 Allow once \(y\) +│\n│ 2 Allow for this session \(a\) +│\n│ 3 Deny \(n \/ esc\) +│\n│ 4 Deny and tell the model why \(f\) +│/);
    assert.match(chat.frame(), /times out in \d+s/);
    await chat.type('y');
    await chat.waitFor('done in');
    assert.match(chat.frame(), /✓ multiply\(a=2, b=3\) \d+ms\n\s+⎿ 6/);
    assert.match(chat.frame(), /It is 6\./);
    assert.doesNotMatch(chat.frame(), /Allow multiply/, 'the prompt is gone');
    assert.match(messagesText(provider.requests[1]), /"content":"6"/);
  });

  test('n denies: the card ends x and the model is told', async () => {
    const { agent, provider } = scriptedAgent([twoByThree, 'Ok, I will not.'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type('n');
    await chat.waitFor('done in');
    assert.match(chat.frame(), /x multiply\(a=2, b=3\)/);
    assert.equal(provider.requests.length, 2);
    assert.match(messagesText(provider.requests[1]), /"role":"tool"/);
    assert.doesNotMatch(messagesText(provider.requests[1]), /"content":"6"/);
  });

  test('f + feedback + Enter denies and sends the feedback to the model', async () => {
    const { agent, provider } = scriptedAgent([twoByThree, 'Understood.'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type('f');
    await chat.waitFor('Feedback for the model:');
    await chat.type('use the add tool instead');
    await chat.waitFor('use the add tool instead');
    await chat.type(ENTER);
    await chat.waitFor('done in');
    assert.match(messagesText(provider.requests[1]), /use the add tool instead/);
    assert.match(chat.frame(), /x multiply.*\n\s+⎿ denied: use the add tool instead/);
  });

  test('the numbers pick the same choices: 2 allows for the session, 4 asks for feedback, 3 denies', async () => {
    const lines = (n: number) => ({ toolCalls: [{ toolName: 'lines', parameters: { n } }] });
    const { agent, provider } = scriptedAgent(
      [twoByThree, 'six', twoByThree, 'six again', lines(1), 'no lines', lines(2), 'still no lines'],
      [multiplyTool(true), linesTool(true)],
    );
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type('2');
    await chat.waitFor(/six[\s\S]*done in/);
    const beforeAgain = chat.ui.frames.length;
    await chat.send('again');
    await chat.waitFor(/six again[\s\S]*done in/);
    assert.deepEqual(chat.ui.frames.slice(beforeAgain).filter((f) => f.includes('Allow multiply')), [], 'the second call ran without asking');
    assert.equal(chat.frame().match(/✓ multiply\(a=2, b=3\)/g)?.length, 2);
    assert.equal(provider.requests.length, 4);
    assert.match(messagesText(provider.requests[3]), /"role":"tool","content":"6"/);
    await chat.send('one line');
    await chat.waitFor('Allow lines({"n":1})');
    await chat.type('4');
    await chat.waitFor('Feedback for the model:');
    await chat.type('not now');
    await chat.waitFor('not now');
    await chat.type(ENTER);
    await chat.waitFor(/no lines[\s\S]*done in/);
    assert.match(messagesText(provider.requests[5]), /not now/);
    await chat.send('two lines');
    await chat.waitFor('Allow lines({"n":2})');
    await chat.type('3');
    await chat.waitFor('still no lines');
    assert.match(chat.frame(), /x lines\(n=2\)/);
  });

  test('a allows the tool for the session: the next call is not asked about', async () => {
    const { agent } = scriptedAgent([twoByThree, 'six', twoByThree, 'six again'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type('a');
    await chat.waitFor('six');
    await chat.waitFor(/done in[\s\S]*›/);
    const beforeAgain = chat.ui.frames.length;
    await chat.send('again');
    await chat.waitFor(/six again[\s\S]*done in/);
    assert.deepEqual(chat.ui.frames.slice(beforeAgain).filter((f) => f.includes('Allow multiply')), [], 'not asked again');
    assert.equal(chat.frame().match(/✓ multiply\(a=2, b=3\) \d+ms\n\s+⎿ 6/g)?.length, 2);
  });

  test('two approvals queue and are answered in order', async () => {
    const { agent, provider } = scriptedAgent([twoProducts, 'done both'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('two products');
    await chat.waitFor('Allow multiply({"a":2,"b":3})?');
    await chat.waitFor('1 more approval queued');
    await chat.type('y');
    await chat.waitFor('Allow multiply({"a":4,"b":5})?');
    assert.doesNotMatch(chat.frame(), /more approval/);
    await chat.type('n');
    await chat.waitFor('done in');
    const tools = messagesText(provider.requests[1]);
    assert.match(tools, /"content":"6"/);
    assert.doesNotMatch(tools, /"content":"20"/);
  });

  test('Esc denies the approval (it does not cancel the turn): the card ends x and the model is told', async () => {
    const { agent, provider } = scriptedAgent([twoByThree, 'Ok, not multiplying.'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type(ESC);
    await chat.waitFor('done in', 'the turn to end normally');
    assert.doesNotMatch(chat.frame(), /cancelled in/);
    assert.doesNotMatch(chat.frame(), /Allow multiply/, 'the prompt is gone');
    assert.match(chat.frame(), /x multiply\(a=2, b=3\)\n\s+⎿ denied/);
    assert.match(chat.frame(), /Ok, not multiplying\./);
    assert.equal(provider.requests.length, 2);
    assert.match(messagesText(provider.requests[1]), /The user denied the tool call \\"multiply\\"/);
    assert.doesNotMatch(messagesText(provider.requests[1]), /"content":"6"/);
  });

  test('an approval that times out: the prompt goes, the card says it timed out and the model gets the denial', async () => {
    const { agent, provider } = scriptedAgent([twoByThree, 'No answer, so no product.'], [multiplyTool(true)], { approvalTimeout: 1 });
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    assert.match(chat.frame(), /times out in 1s \(then denied\)/);
    await chat.waitFor('done in', 'the turn to end after the timeout');
    assert.doesNotMatch(chat.frame(), /Allow multiply/, 'the prompt is gone');
    assert.match(chat.frame(), /x multiply\(a=2, b=3\)\n\s+⎿ approval timed out/);
    assert.match(chat.frame(), /No answer, so no product\./);
    assert.equal(provider.requests.length, 2);
    assert.match(messagesText(provider.requests[1]), /was not approved within 1 s and was denied/);
    assert.doesNotMatch(messagesText(provider.requests[1]), /"content":"6"/);
    // The prompt is gone for good: a late key is not an answer (nor does it break the input line).
    await chat.type('y');
    assert.doesNotMatch(chat.frame(), /Allow multiply/);
  });

  test('Ctrl+C while an approval is pending cancels the turn; the tool never runs', async () => {
    let runs = 0;
    const counted = tool({
      name: 'multiply',
      description: 'Multiply two integers exactly.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      requiresApproval: true,
      execute: ({ a, b }) => {
        runs++;
        return String(a * b);
      },
    });
    const { agent, provider } = scriptedAgent([twoByThree, 'never sent'], [counted]);
    const chat = mount(agent);
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type(CTRL_C);
    await chat.waitFor('cancelled in', 'the cancelled turn');
    assert.doesNotMatch(chat.frame(), /Allow multiply/, 'the prompt is gone');
    assert.match(chat.frame(), /x multiply\(a=2, b=3\)/);
    assert.match(chat.frame(), /press Ctrl\+C again to quit/);
    assert.deepEqual(chat.exits, [], 'one Ctrl+C does not quit');
    await tick(100);
    assert.equal(runs, 0, 'the tool did not run');
    assert.equal(provider.requests.length, 1, 'the model was not called again');
    assert.doesNotMatch(chat.frame(), /never sent/);
  });

  test('"allow for this session" also answers a call of the same tool already queued', async () => {
    const { agent, provider } = scriptedAgent([twoProducts, 'done both'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('two products');
    await chat.waitFor('1 more approval queued');
    const before = chat.ui.frames.length;
    await chat.type('a');
    await chat.waitFor('done in');
    assert.deepEqual(chat.ui.frames.slice(before).filter((f) => f.includes('Allow multiply({"a":4,"b":5})')), [], 'the queued call was not asked about');
    assert.match(chat.frame(), /✓ multiply\(a=2, b=3\)/);
    assert.match(chat.frame(), /✓ multiply\(a=4, b=5\)/);
    const tools = messagesText(provider.requests[1]);
    assert.match(tools, /"content":"6"/);
    assert.match(tools, /"content":"20"/);
  });

  test('Esc cancels a running turn', async () => {
    const { agent } = scriptedAgent([{ text: 'word '.repeat(200), chunkDelayMs: 20 }]);
    const chat = mount(agent);
    await chat.send('talk a lot');
    await chat.waitFor('word word');
    assert.match(chat.frame(), /esc to cancel/);
    await chat.type(ESC);
    await chat.waitFor('cancelled in', 'the cancelled turn');
    assert.match(chat.frame(), /Ask something, or \/help/);
  });

  test('Ctrl+C cancels a running turn, a second Ctrl+C quits', async () => {
    const { agent } = scriptedAgent([{ text: 'word '.repeat(200), chunkDelayMs: 20 }]);
    const chat = mount(agent);
    await chat.send('talk');
    await chat.waitFor('word word');
    await chat.type(CTRL_C);
    await chat.waitFor('cancelled in');
    assert.match(chat.frame(), /press Ctrl\+C again to quit/);
    assert.deepEqual(chat.exits, []);
    await chat.type(CTRL_C);
    assert.deepEqual(chat.exits, [0]);
  });

  test('Up/Down walk the input history', async () => {
    const { agent } = scriptedAgent(['one', 'two']);
    const chat = mount(agent);
    await chat.send('first question');
    await chat.waitFor('done in');
    await chat.type('draft');
    await chat.waitFor(/› draft█/, 'the draft on the input line');
    await chat.type(UP);
    // Ink handles each key on its own schedule: wait for the frame rather than a fixed tick.
    await chat.waitFor(/› first question█/, 'the previous prompt');
    await chat.type(DOWN);
    await chat.waitFor(/› draft█/, 'the draft back');
  });

  test('long tool output is cut to a few lines; Ctrl+O prints it in full', async () => {
    const { agent } = scriptedAgent([{ toolCalls: [{ toolName: 'lines', parameters: { n: 10 } }] }, 'printed'], [linesTool()]);
    const chat = mount(agent);
    await chat.send('print');
    await chat.waitFor('done in');
    assert.match(chat.frame(), /⎿ line 1\n\s+line 2\n\s+line 3\n\s+… 7 more lines \(ctrl\+o to show all\)/);
    assert.doesNotMatch(chat.frame(), /line 10/);
    await chat.type(CTRL_O);
    await chat.waitFor('line 10');
  });

  test('the footer shows agent, model, tokens, cost, context fill, iteration and approval mode', async () => {
    // The reply is held until the running footer was checked (a fixed delay could pass unseen on a stalled machine).
    const reply = deferred();
    const provider = new ScriptedProvider({
      respond: async () => {
        await reply.promise;
        return 'slow answer';
      },
      usage: USAGE,
    });
    const chat = mount(new Agent({ name: 'tester', provider, model: 'gpt-4o-mini' }), { approvalMode: 'all' });
    await chat.send('hi');
    await chat.waitFor('iter 1');
    assert.match(chat.frame(), /tester · scripted\/gpt-4o-mini · 0 tokens · \$0\.0000 · ctx 0% · iter 1 · approve: all\nesc to cancel/);
    reply.resolve();
    await chat.waitFor('done in');
    // gpt-4o-mini: 100 prompt tokens × $0.15/M + 20 completion tokens × $0.60/M = $0.000027 (not $0.0000).
    assert.match(chat.frame(), /120 tokens · \$0\.000027 · ctx <1% · approve: all/);
    assert.match(chat.frame(), /done in [^\n]* · 120 tokens · \$0\.000027/, 'the turn-end line has the cost too');
    await chat.send('/cost');
    await chat.waitFor('Session: 120 tokens');
    assert.match(chat.frame(), /Session: 120 tokens \(100 prompt \+ 20 completion\) in 1 LLM call, \$0\.000027\nContext: <1% \(100 of \d+ tokens\)/);
  });

  /** Runs a turn with an approval, bold Markdown and the trace pane, with chalk able to colour (as in a colour terminal). */
  async function colouredFrames(color: boolean): Promise<string[]> {
    // Under the test runner stdout is no TTY, so chalk (and Ink through it) has no colour at all:
    // without forcing a level, `color={false}` could leak styles and no frame would show it.
    const level = chalk.level;
    chalk.level = 1;
    try {
      const { agent } = scriptedAgent([twoByThree, '**Six**.'], [multiplyTool(true)]);
      const chat = mount(agent, { color });
      await chat.send('2*3?');
      await chat.waitFor('Allow multiply');
      await chat.type('y');
      await chat.waitFor('done in');
      await chat.send('/trace');
      await until(() => stripAnsi(chat.frame()).includes('│ trace'), 'the trace pane');
      assert.match(stripAnsi(chat.frame()), /│ ✓ run tester \(scripted\/gpt-4o-mini\)/);
      return [...chat.ui.frames];
    } finally {
      chalk.level = level;
    }
  }

  test('NO_COLOR (color={false}): no ANSI escapes in any frame, even where chalk could colour', async () => {
    const frames = await colouredFrames(false);
    for (const frame of frames) assert.doesNotMatch(frame, /\u001B\[/);
  });

  test('color={true}: the frames are coloured (the check above can fail)', async () => {
    const frames = await colouredFrames(true);
    assert.ok(frames.some((frame) => /\u001B\[(3[0-7]|9[0-7]|1|2)m/.test(frame)), 'some frame has colour or style escapes');
  });

  test('re-render rate while streaming stays near 30 frames a second', async () => {
    // The batcher runs on a virtual clock that advances 4 ms per delta, so the flushes (and the frames)
    // depend on the stream only: under real time a starved machine could space the deltas ≥ 33 ms
    // apart, and each would then be flushed on its leading edge, as it should be.
    const clock = virtualClock();
    const chunks = Array.from({ length: 150 }, (_, i) => `w${i} `);
    const provider = new ClockedProvider({ replies: [{ chunks, chunkDelayMs: 4 }], usage: USAGE }, clock, 4);
    const chat = mount(new Agent({ name: 'tester', provider, model: 'gpt-4o-mini' }), { clock });
    await chat.type('stream');
    const before = chat.ui.frames.length;
    const started = clock.now();
    await chat.type(ENTER);
    await until(() => chat.frame().includes('done in'), 'the streamed turn to end', 20_000);
    const elapsed = clock.now() - started;
    assert.equal(elapsed, 150 * 4, 'the stream took 600 ms of the virtual clock');
    assert.ok(chat.frame().replace(/\s+/g, ' ').includes(chunks.join('').trim()), 'every delta was shown');
    const frames = chat.ui.frames.length - before;
    const allowed = Math.ceil((elapsed / 1000) * 30) + 8;
    assert.ok(frames <= allowed, `${frames} frames in ${elapsed} ms for 150 deltas (allowed ${allowed})`);
    assert.ok(frames < 150 / 2, `${frames} frames for 150 deltas`);
  });
});

describe('slash commands', () => {
  test('/help, /tools, /cost print; unknown commands suggest', async () => {
    const { agent } = scriptedAgent(['ok'], [multiplyTool(true)]);
    const chat = mount(agent);
    await chat.send('/help');
    await chat.waitFor('Commands:');
    assert.match(chat.frame(), /\/save <file>\s+write the last run's trace as JSONL/);
    await chat.send('/tools');
    await chat.waitFor('Tools (1):');
    assert.match(chat.frame(), /multiply\s+Multiply two integers exactly\. \[approval\]/);
    await chat.send('/cost');
    await chat.waitFor('Session: 0 tokens');
    await chat.send('/hlep');
    await chat.waitFor('Unknown command /hlep. Did you mean /help?');
  });

  test('/reset clears the conversation; /exit quits', async () => {
    const { agent } = scriptedAgent(['first', 'second']);
    const chat = mount(agent);
    await chat.send('hello');
    await chat.waitFor('done in');
    assert.equal(agent.history.length, 2);
    await chat.send('/reset');
    await chat.waitFor('— conversation reset —');
    assert.equal(agent.history.length, 0);
    assert.match(chat.frame(), /· 0 tokens ·/);
    await chat.send('/exit');
    assert.deepEqual(chat.exits, [0]);
  });

  test('/model switches the agent and continues the conversation', async () => {
    const first = scriptedAgent(['from the first model']);
    const second = scriptedAgent(['from the second model']);
    const models: string[] = [];
    const chat = mount(first.agent, {
      switchModel: async (model) => {
        models.push(model);
        return second.agent;
      },
    });
    await chat.send('/model');
    await chat.waitFor('Model: scripted/gpt-4o-mini');
    await chat.send('hello');
    await chat.waitFor('from the first model');
    await chat.send('/model gpt-4o');
    await chat.waitFor('Model switched to');
    assert.deepEqual(models, ['gpt-4o']);
    await chat.send('and now?');
    await chat.waitFor('from the second model');
    assert.match(messagesText(second.provider.requests[0]), /hello[\s\S]*from the first model[\s\S]*and now\?/);
  });

  test('/model without a loader says it is not available', async () => {
    const { agent } = scriptedAgent([]);
    const chat = mount(agent);
    await chat.send('/model gpt-4o');
    await chat.waitFor('Switching models is not available for this agent.');
  });

  test('/save after a failed turn saves the failed run, with its error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-save-failed-'));
    try {
      const { agent } = scriptedAgent(['first answer', { error: new Error('provider down') }]);
      const chat = mount(agent, { cwd: dir });
      await chat.send('hello');
      await chat.waitFor('done in');
      await chat.send('again');
      await chat.waitFor(/error in/);
      await chat.send('/save failed.jsonl');
      await chat.waitFor('Saved the trace of the last run to failed.jsonl');
      const header = JSON.parse(readFileSync(join(dir, 'failed.jsonl'), 'utf8').split('\n')[0] ?? '{}') as { status?: string };
      assert.equal(header.status, 'error');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('/save writes the trace JSONL of the last run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-save-'));
    try {
      const { agent } = scriptedAgent(['saved answer']);
      const chat = mount(agent, { cwd: dir });
      await chat.send('/save early.jsonl');
      await chat.waitFor('No finished run to save yet.');
      await chat.send('hello');
      await chat.waitFor('done in');
      await chat.send('/save out/run.jsonl');
      await chat.waitFor('Saved the trace of the last run to out/run.jsonl');
      const file = join(dir, 'out', 'run.jsonl');
      assert.ok(existsSync(file));
      const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '{}');
      assert.equal(header.type, 'trace');
      assert.equal(header.version, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('/trace shows the live step tree of the run', async () => {
    const { agent } = scriptedAgent([twoByThree, 'six'], [multiplyTool()]);
    const chat = mount(agent);
    await chat.send('/trace');
    await chat.waitFor('no run yet');
    await chat.send('2*3');
    await chat.waitFor('done in');
    assert.match(chat.frame(), /✓ run tester \(scripted\/gpt-4o-mini\)/);
    assert.match(chat.frame(), /\s+✓ iteration 1/);
    assert.match(chat.frame(), /\s+✓ tool multiply ok/);
    await chat.send('/trace');
    await until(() => !chat.frame().includes('iteration 1'), 'the pane to close');
  });

  test('notices (sessions not available) are shown once at the top', async () => {
    const { agent } = scriptedAgent([]);
    const chat = mount(agent, { notices: ['sessions are not available yet'] });
    await chat.waitFor('sessions are not available yet');
    await tick(50);
    assert.match(chat.frame(), /^sessions are not available yet\n\n› Ask something/);
    assert.equal(chat.frame().split('sessions are not available yet').length - 1, 1);
  });
});

test('a pasted chunk that ends with Enter is submitted; Enter right after typing (no render between) too', async () => {
  const { agent, provider } = scriptedAgent(['pasted ok', 'fast ok']);
  const chat = mount(agent);
  await chat.type('What is 1231 * 2331?\r');
  await chat.waitFor('pasted ok');
  assert.match(messagesText(provider.requests[0]), /What is 1231 \* 2331\?/);
  await chat.waitFor(/done in[\s\S]*Ask something/);
  chat.ui.stdin.write('fast');
  chat.ui.stdin.write(ENTER);
  await chat.waitFor('fast ok');
  assert.match(messagesText(provider.requests[1]), /"content":"fast"/);
  cleanup();
});

describe('errors, busy turns, model switches, approvals', () => {
  test('a failed turn shows its error once (not also as the turn-end error)', async () => {
    const { agent } = scriptedAgent([{ error: new Error('provider down') }]);
    const chat = mount(agent);
    await chat.send('hello');
    await chat.waitFor(/error in \d/);
    await tick(50);
    assert.equal(chat.frame().split('provider down').length - 1, 1, chat.frame());
    assert.match(chat.frame(), /› hello\n.*provider down\nerror in /);
  });

  test('while a turn runs: /cost, /trace, /tools and /help run at once; prompts and /model wait in the input', async () => {
    const { agent, provider } = scriptedAgent([{ text: 'word '.repeat(400), chunkDelayMs: 20 }, 'second answer'], [multiplyTool()]);
    const loads: string[] = [];
    const chat = mount(agent, {
      switchModel: async (model) => {
        loads.push(model);
        return agent;
      },
    });
    await chat.send('talk');
    await chat.waitFor('word word');
    assert.match(chat.frame(), /› a turn is running: \/help \/trace \/cost \/tools work now█/);
    await chat.send('/cost');
    await chat.waitFor('Session: ');
    await chat.send('/trace');
    await chat.waitFor('│ trace');
    assert.match(chat.frame(), /│ ⊷ run tester \(scripted\/gpt-4o-mini\)/);
    await chat.send('/tools');
    await chat.waitFor('Tools (1):');
    await chat.send('/help');
    await chat.waitFor('Commands:');
    assert.doesNotMatch(chat.frame(), /done in|cancelled in/, 'all of that while the turn was running');
    await chat.send('/model gpt-4o');
    await chat.waitFor('a turn is running: /model can run when it has finished (esc cancels it)');
    assert.match(chat.frame(), /› \/model gpt-4o█/, 'the refused command stays in the input');
    assert.deepEqual(loads, []);
    await chat.type(CTRL_U);
    await chat.send('next question');
    await chat.waitFor('a turn is running: press Enter again when it has finished (esc cancels it)');
    assert.match(chat.frame(), /› next question█/);
    assert.equal(provider.requests.length, 1, 'the prompt was not sent');
    await chat.type(ESC);
    await chat.waitFor('cancelled in');
    await chat.waitFor('/help for commands', 'the notice to go with the turn');
    assert.doesNotMatch(chat.frame(), /press Enter again/);
    assert.match(chat.frame(), /› next question█/, 'still in the input after the turn');
    await chat.type(ENTER);
    await chat.waitFor('second answer');
    assert.equal(provider.requests.length, 2);
    assert.match(messagesText(provider.requests[1]), /"content":"next question"/);
    // Refused lines did not go into the input history: Up gives the sent one, then /help.
    await chat.waitFor(/done in[\s\S]*Ask something/);
    await chat.type(UP);
    assert.match(chat.frame(), /› next question█/);
    await chat.type(UP);
    assert.match(chat.frame(), /› \/help█/);
  });

  test('/model: a prompt sent while the new model loads waits; it then goes to the new model only', async () => {
    const first = scriptedAgent(['from the first model']);
    const second = scriptedAgent(['from the second model']);
    let release: (agent: Agent) => void = () => undefined;
    const chat = mount(first.agent, { switchModel: () => new Promise<Agent>((resolve) => (release = resolve)) });
    await chat.send('/model gpt-4o');
    await chat.waitFor('› loading the model…');
    await chat.send('hello');
    await chat.waitFor('the model is loading: press Enter again when it has loaded');
    await chat.type(CTRL_U);
    await chat.send('/model gpt-4.1');
    await chat.waitFor('the model is loading: /model can run when it has loaded');
    await chat.type(CTRL_U);
    await chat.type('hello');
    assert.equal(first.provider.requests.length, 0);
    release(second.agent);
    await chat.waitFor('Model switched to scripted/gpt-4o-mini');
    await chat.type(ENTER);
    await chat.waitFor(/from the second model[\s\S]*done in/);
    assert.equal(first.provider.requests.length, 0, 'nothing ran on the old model');
    assert.equal(second.provider.requests.length, 1);
  });

  test('/model: when the first turn on the new model fails, the conversation is carried to the next turn (once)', async () => {
    const first = scriptedAgent(['from the first model']);
    const second = scriptedAgent([{ error: new Error('new model is down') }, 'from the second model', 'third answer']);
    const chat = mount(first.agent, { switchModel: async () => second.agent });
    await chat.send('hello');
    await chat.waitFor(/from the first model[\s\S]*done in/);
    await chat.send('/model gpt-4o');
    await chat.waitFor('Model switched to');
    await chat.send('and now?');
    await chat.waitFor(/new model is down[\s\S]*error in/);
    await chat.send('retry');
    await chat.waitFor(/from the second model[\s\S]*done in/);
    const contents = (i: number): unknown[] => (second.provider.requests[i]?.messages ?? []).filter((m) => m.role !== 'system').map((m) => m.content);
    assert.deepEqual(contents(1), ['hello', 'from the first model', 'retry']);
    await chat.send('more');
    await chat.waitFor('third answer');
    assert.deepEqual(contents(2), ['hello', 'from the first model', 'retry', 'from the second model', 'more']);
  });

  test('/model keeps tools allowed for the session; /reset forgets them', async () => {
    const first = scriptedAgent([twoByThree, 'six'], [multiplyTool(true)]);
    const second = scriptedAgent([twoByThree, 'six again', twoByThree, 'asked again'], [multiplyTool(true)]);
    const chat = mount(first.agent, { switchModel: async () => second.agent });
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply');
    await chat.type('a');
    await chat.waitFor(/six[\s\S]*done in/);
    await chat.send('/model gpt-4o');
    await chat.waitFor('Model switched to');
    const afterSwitch = chat.ui.frames.length;
    await chat.send('again');
    await chat.waitFor(/six again[\s\S]*done in/);
    assert.deepEqual(chat.ui.frames.slice(afterSwitch).filter((f) => f.includes('Allow multiply')), [], 'not asked on the new model');
    assert.match(messagesText(second.provider.requests[1]), /"role":"tool","content":"6"/);
    await chat.send('/reset');
    await chat.waitFor('— conversation reset —');
    await chat.send('once more');
    await chat.waitFor('Allow multiply({"a":2,"b":3})?');
  });

  test('the approval prompt ignores keys that came before a frame showed it', async () => {
    const { agent, provider } = scriptedAgent([twoByThree, 'It is 6.'], [multiplyTool(true)]);
    const frames = new FrameCounter();
    const chat = mount(agent, { frames });
    await chat.send('2*3?');
    await chat.waitFor('Allow multiply({"a":2,"b":3})?');
    // Rendered, but no frame drawn since (as when Ink's throttled frame is still pending): a 'y'
    // typed now was typed before the prompt could be seen.
    await chat.type('y');
    await chat.type('a');
    await tick(100);
    assert.match(chat.frame(), /\? Allow multiply/);
    assert.equal(provider.requests.length, 1);
    frames.tick();
    await chat.type('y');
    await chat.waitFor(/It is 6\.[\s\S]*done in/);
    assert.match(messagesText(provider.requests[1]), /"role":"tool","content":"6"/);
  });
});
