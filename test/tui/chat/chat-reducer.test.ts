import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chatReducer, splitCompleteParagraphs, type ChatAction } from '../../../tui/chat/chat-reducer.js';
import { initialChatState, type ChatState } from '../../../tui/chat/chat-state.js';
import type { RunStatus } from '../../../lib/events/types.js';
import { ev } from './helpers.js';

const usage = { promptTokens: 100, completionTokens: 20, totalTokens: 120, costUsd: 0.001, embeddingTokens: 0, embeddingCostUsd: 0 };
const total = { promptTokens: 100, completionTokens: 20, totalTokens: 120, totalCostUsd: 0.001, llmCalls: 1 };

function reduce(actions: ChatAction[], state: ChatState = initialChatState('gpt-4o-mini')): ChatState {
  return actions.reduce(chatReducer, state);
}

const start: ChatAction = { type: 'turn-start', prompt: 'hello', now: 1000 };
const events = (...list: ReturnType<typeof ev>[]): ChatAction => ({ type: 'events', events: list });

/** The live segments without the paragraph scan state (what is drawn). */
function segments(state: ChatState): { kind: string; text?: string; callId?: string }[] | undefined {
  return state.live?.segments.map((s) => (s.kind === 'text' ? { kind: s.kind, text: s.text } : s));
}

describe('chatReducer', () => {
  test('a turn streams into the live region and moves to the static transcript when it ends', () => {
    let state = reduce([start, events(ev('run-start', { agentName: 'a', input: 'hello', provider: 'p', model: 'm' }), ev('iteration-start', { iteration: 1 }), ev('text-delta', { iteration: 1, text: 'Hel' }))]);
    assert.deepEqual(state.finished.map((i) => i.kind), ['user']);
    assert.deepEqual(segments(state), [{ kind: 'text', text: 'Hel' }]);
    assert.equal(state.live?.iteration, 1);
    state = reduce([events(ev('text-delta', { iteration: 1, text: 'lo!' }), ev('usage', { iteration: 1, usage, total })), { type: 'turn-finish', status: 'completed', now: 1500 }], state);
    assert.equal(state.live, undefined);
    assert.deepEqual(
      state.finished.map((i) => i.kind),
      ['user', 'text', 'turn-end'],
    );
    const text = state.finished[1];
    assert.ok(text?.kind === 'text' && text.text === 'Hello!');
    const end = state.finished[2];
    assert.ok(end?.kind === 'turn-end' && end.durationMs === 500 && end.tokens === 120);
    assert.equal(state.usage.totalTokens, 120);
    assert.equal(state.usage.lastPromptTokens, 100);
  });

  test('escape sequences in model text, tool output and errors never reach the state that is drawn', () => {
    const esc = '\u001b]52;c;aGk=\u0007\u001b[2J';
    const state = reduce([
      start,
      events(
        ev('run-start', { agentName: 'a', input: 'hello', provider: 'p', model: 'm' }),
        ev('text-delta', { iteration: 1, text: `Hi${esc}!` }),
        ev('tool-start', { callId: 'c1', toolName: 'shell', args: {} }),
        ev('tool-end', { callId: 'c1', toolName: 'shell', args: {}, result: `out${esc}put`, durationMs: 1, cached: false }),
        // A model-chosen tool name and a tool's error message (8-bit CSI too) go to the trace pane's rows.
        ev('tool-start', { callId: 'c2', toolName: `sh${esc}ell`, args: {} }),
        ev('tool-error', { callId: 'c2', toolName: `sh${esc}ell\u009b2J`, args: {}, error: { name: 'ToolExecutionError', message: `no${esc}pe\u009b31m\nsecond line` }, kind: 'execution', durationMs: 1 }),
        ev('error', { stage: 'tool', error: { name: 'ToolExecutionError', message: `down${esc}` } }),
      ),
      { type: 'turn-finish', status: 'error', now: 1200, error: `Error: bad${esc}` },
    ]);
    const drawn = JSON.stringify(state.finished);
    assert.ok(!drawn.includes('\\u001b'), drawn);
    assert.match(drawn, /Hi!/);
    assert.match(drawn, /output/);
    assert.match(drawn, /Error: bad/);
    const rows = JSON.stringify(state.traceRows);
    assert.ok(!/\\u001b|\\u0007|\u009b|\\n/.test(rows), rows);
    assert.ok(state.traceRows.some((row) => row.label === 'tool shell' && row.detail === 'execution: nope second line'), rows);
    assert.ok(state.traceRows.some((row) => row.detail === 'down'), rows);
  });

  test('complete paragraphs move to static while the turn streams; an open code fence stays live', () => {
    let state = reduce([start, events(ev('text-delta', { iteration: 1, text: 'First paragraph.\n\nSecond' }))]);
    assert.deepEqual(state.finished.map((i) => (i.kind === 'text' ? i.text : i.kind)), ['user', 'First paragraph.']);
    assert.deepEqual(segments(state), [{ kind: 'text', text: 'Second' }]);
    state = reduce([events(ev('text-delta', { iteration: 1, text: '\n\n```js\nconst a = 1;\n\nconst b = 2;\n' }))], state);
    assert.deepEqual(state.finished.map((i) => (i.kind === 'text' ? i.text : i.kind)), ['user', 'First paragraph.', 'Second']);
    assert.equal(state.live?.segments[0]?.kind === 'text' && state.live.segments[0].text.startsWith('```js'), true);
  });

  test('splitCompleteParagraphs ignores blank lines inside fences', () => {
    assert.deepEqual(splitCompleteParagraphs('no break yet'), ['', 'no break yet']);
    assert.deepEqual(splitCompleteParagraphs('a\n\nb'), ['a', 'b']);
    assert.deepEqual(splitCompleteParagraphs('```\nx\n\ny'), ['', '```\nx\n\ny']);
    assert.deepEqual(splitCompleteParagraphs('```\nx\n```\n\ny'), ['```\nx\n```', 'y']);
  });

  test('tool cards: running → success; the finished prefix moves to static, a running card stays live', () => {
    let state = reduce([
      start,
      events(
        ev('text-delta', { iteration: 1, text: 'Let me compute.' }),
        ev('tool-start', { callId: 'c1', toolName: 'multiply', args: { a: 2, b: 3 } }),
        ev('tool-start', { callId: 'c2', toolName: 'add', args: { a: 1, b: 1 } }),
      ),
    ]);
    assert.deepEqual(state.finished.map((i) => i.kind), ['user', 'text']);
    assert.deepEqual(Object.values(state.live?.tools ?? {}).map((c) => c.status), ['running', 'running']);
    state = reduce([events(ev('tool-end', { callId: 'c2', toolName: 'add', args: { a: 1, b: 1 }, result: '2', durationMs: 5, cached: false }))], state);
    // c2 finished but c1 (before it) is still running: order is kept, both stay live
    assert.deepEqual(state.live?.segments.map((s) => (s.kind === 'tool' ? s.callId : 'text')), ['c1', 'c2']);
    state = reduce([events(ev('tool-error', { callId: 'c1', toolName: 'multiply', args: { a: 2, b: 3 }, error: { name: 'Error', message: 'boom' }, kind: 'execution', durationMs: 7 }))], state);
    assert.deepEqual(state.live?.segments, []);
    const cards = state.finished.flatMap((i) => (i.kind === 'tool' ? [i.card] : []));
    assert.deepEqual(
      cards.map((c) => [c.callId, c.status, c.output, c.durationMs]),
      [
        ['c1', 'error', 'boom', 7],
        ['c2', 'success', '2', 5],
      ],
    );
  });

  test('approvals: a review-gated call shows ? and queues in request order; a denial ends the card as x', () => {
    let state = reduce([
      start,
      events(ev('approval-request', { callId: 'c1', toolName: 'multiply', args: { a: 1, b: 2 }, reason: 'review', timeoutMs: 60_000 })),
      { type: 'approval-enqueue', approval: { callId: 'c1', toolName: 'multiply', args: { a: 1, b: 2 }, reason: 'review', requestedAt: 10 } },
      { type: 'approval-enqueue', approval: { callId: 'c2', toolName: 'multiply', args: { a: 3, b: 4 }, reason: 'review', requestedAt: 11 } },
      events(ev('approval-request', { callId: 'c2', toolName: 'multiply', args: { a: 3, b: 4 }, reason: 'review', timeoutMs: 30_000 })),
    ]);
    assert.deepEqual(state.approvals.map((a) => [a.callId, a.timeoutMs]), [
      ['c1', 60_000],
      ['c2', 30_000],
    ]);
    assert.equal(state.live?.tools.c1?.status, 'approval');
    state = reduce([events(ev('approval-response', { callId: 'c1', toolName: 'multiply', approved: false, outcome: 'denied', feedback: 'use add' }))], state);
    assert.deepEqual(state.approvals.map((a) => a.callId), ['c2']);
    const denied = state.finished.find((i) => i.kind === 'tool');
    assert.ok(denied?.kind === 'tool' && denied.card.status === 'denied' && denied.card.output === 'denied: use add');
    state = reduce([{ type: 'approval-resolve', callId: 'c2' }], state);
    assert.deepEqual(state.approvals, []);
  });

  test('a cancelled turn closes open cards as errors and clears the approval queue', () => {
    const state = reduce([
      start,
      events(ev('tool-start', { callId: 'c1', toolName: 'slow', args: {} })),
      { type: 'approval-enqueue', approval: { callId: 'c9', toolName: 'x', args: {}, reason: '', requestedAt: 0 } },
      { type: 'turn-finish', status: 'cancelled', now: 2000 },
    ]);
    assert.equal(state.live, undefined);
    assert.deepEqual(state.approvals, []);
    const card = state.finished.find((i) => i.kind === 'tool');
    assert.ok(card?.kind === 'tool' && card.card.status === 'error');
    assert.ok(state.finished.at(-1)?.kind === 'turn-end');
  });

  test('a cancelled run ends its trace rows stopped (!), not done (✓) nor failed', () => {
    const state = reduce([
      start,
      events(
        ev('run-start', { agentName: 'a', input: 'hello', provider: 'p', model: 'm' }),
        ev('iteration-start', { iteration: 1 }),
        ev('llm-start', { iteration: 1, provider: 'p', model: 'm', messageCount: 1, toolCount: 0 }),
        ev('cancelled', { stage: 'llm', iteration: 1 }),
        ev('run-end', { agentName: 'a', status: 'cancelled', content: '', iterations: 1, durationMs: 5, usage: { ...total, embeddingTokens: 0, embeddingCostUsd: 0 } as never }),
      ),
    ]);
    assert.deepEqual(state.traceRows.map((r) => [r.label, r.status]), [
      ['run a (p/m)', 'stopped'],
      ['iteration 1', 'stopped'],
      ['llm m', 'stopped'],
      ['cancelled', 'stopped'],
    ]);
    assert.equal(state.traceRows[0]?.detail, 'cancelled');
    assert.equal(state.traceRows[2]?.detail, '1 message');
    const ended = (status: RunStatus) =>
      reduce([start, events(ev('run-start', { agentName: 'a', input: '', provider: 'p', model: 'm' }), ev('run-end', { agentName: 'a', status, content: '', iterations: 1, durationMs: 5, usage: {} as never }))]).traceRows[0]?.status;
    assert.deepEqual((['completed', 'terminal-tool', 'max-iterations', 'budget-exceeded', 'error'] as const).map(ended), ['ok', 'ok', 'stopped', 'stopped', 'error']);
  });

  test('a cost warning for a tiny budget shows the cost, not $0.0000', () => {
    const state = reduce([start, events(ev('cost-warning', { threshold: 0.00004, costUsd: 0.000049 }))]);
    assert.ok(state.finished.some((item) => item.kind === 'notice' && item.text === 'cost passed $0.00004 ($0.000049)'), JSON.stringify(state.finished));
  });

  test('the live region never holds finished turns', () => {
    let state = initialChatState('m');
    for (let turn = 0; turn < 3; turn++) {
      state = reduce([start, events(ev('text-delta', { iteration: 1, text: `answer ${turn}` })), { type: 'turn-finish', status: 'completed', now: 2000 }], state);
      assert.equal(state.live, undefined);
    }
    state = reduce([start, events(ev('text-delta', { iteration: 1, text: 'streaming' }))], state);
    assert.deepEqual(segments(state), [{ kind: 'text', text: 'streaming' }]);
    assert.equal(state.finished.filter((i) => i.kind === 'turn-end').length, 3);
  });

  test('usage accumulates; reset clears it; the trace rows form a tree', () => {
    let state = reduce([
      start,
      events(
        ev('run-start', { agentName: 'a', input: 'hello', provider: 'p', model: 'm' }),
        ev('iteration-start', { iteration: 1 }),
        ev('llm-start', { iteration: 1, provider: 'p', model: 'm2', messageCount: 2, toolCount: 1 }),
        ev('usage', { iteration: 1, usage, total }),
        ev('llm-end', { iteration: 1, provider: 'p', model: 'm2', durationMs: 10, usage, finishReason: 'tool-calls', content: '', toolCalls: [] }),
        ev('tool-start', { callId: 'c1', toolName: 'multiply', args: {} }),
        ev('usage', { iteration: 2, usage, total }),
      ),
    ]);
    assert.equal(state.usage.totalTokens, 240);
    assert.equal(state.usage.llmCalls, 2);
    assert.equal(state.model, 'm2');
    assert.deepEqual(state.traceRows.map((r) => [r.depth, r.label, r.status]), [
      [0, 'run a (p/m)', 'running'],
      [1, 'iteration 1', 'running'],
      [2, 'llm m2', 'ok'],
      [2, 'tool multiply', 'running'],
    ]);
    state = reduce([{ type: 'turn-finish', status: 'completed', now: 5 }, { type: 'reset' }], state);
    assert.equal(state.usage.totalTokens, 0);
    assert.equal(chatReducer(state, { type: 'toggle-trace' }).traceVisible, true);
  });
});

describe('chatReducer: runs, errors, long streams, long chats', () => {
  type Event = ReturnType<typeof ev>;
  const inRun = (event: Event, parentRunId: string): Event => ({ ...event, parentRunId });
  const runStart = (runId: string, parentRunId?: string): Event => {
    const event = ev('run-start', { agentName: runId, input: 'hello', provider: 'p', model: 'm' }, runId);
    return parentRunId === undefined ? event : inRun(event, parentRunId);
  };

  test('a turn whose own run has a parent (trace.parent_run_id) shows; only other runs are nested', () => {
    // The top run links to an outer run; a sub-agent run nests under the top run.
    const state = reduce([
      start,
      events(
        runStart('run_top', 'outer_run'),
        inRun(ev('iteration-start', { iteration: 1 }, 'run_top'), 'outer_run'),
        inRun(ev('text-delta', { iteration: 1, text: 'Top answer. ' }, 'run_top'), 'outer_run'),
        inRun(ev('usage', { iteration: 1, usage, total }, 'run_top'), 'outer_run'),
        inRun(ev('tool-start', { callId: 'c1', toolName: 'researcher', args: {} }, 'run_top'), 'outer_run'),
        runStart('run_sub', 'run_top'),
        inRun(ev('text-delta', { iteration: 1, text: 'SUB-AGENT TEXT' }, 'run_sub'), 'run_top'),
        inRun(ev('usage', { iteration: 1, usage, total }, 'run_sub'), 'run_top'),
        inRun(ev('text-delta', { iteration: 1, text: 'More top.' }, 'run_top'), 'outer_run'),
      ),
    ]);
    assert.equal(state.live?.runId, 'run_top');
    assert.deepEqual(
      state.finished.map((i) => (i.kind === 'text' ? i.text : i.kind)),
      ['user', 'Top answer.'],
    );
    assert.deepEqual(segments(state), [
      { kind: 'tool', callId: 'c1' },
      { kind: 'text', text: 'More top.' },
    ]);
    assert.doesNotMatch(JSON.stringify([state.finished, state.live]), /SUB-AGENT/);
    assert.equal(state.usage.totalTokens, 120, "the sub-agent's usage event is not counted twice");
    assert.equal(state.live?.iteration, 1);
    assert.deepEqual(
      state.traceRows.map((r) => [r.depth, r.label]),
      [
        [0, 'run run_top (p/m)'],
        [1, 'iteration 1'],
        [2, 'tool researcher'],
        [1, 'run run_sub (p/m)'],
      ],
    );
  });

  test('an error event and the failed turn print the error once', () => {
    const state = reduce([
      start,
      events(runStart('run_1'), ev('error', { error: { name: 'ProviderError', message: 'provider down' }, stage: 'llm' })),
      { type: 'turn-finish', status: 'error', now: 1500, error: 'ProviderError: provider down' },
    ]);
    const notices = state.finished.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    assert.deepEqual(notices, ['ProviderError: provider down']);
    // Without an error event (the run failed before it could emit one) the turn's end prints it.
    const early = reduce([start, { type: 'turn-finish', status: 'error', now: 1500, error: 'Error: bad input' }]);
    assert.deepEqual(early.finished.flatMap((i) => (i.kind === 'notice' ? [i.text] : [])), ['Error: bad input']);
  });

  test('a 200k-character paragraph streamed in 2,000 deltas is scanned once: each delta reads only itself', () => {
    let state = reduce([start]);
    let text = '';
    for (let i = 0; i < 2000; i++) {
      const delta = `${String(i).padStart(4, '0')} ${'x'.repeat(94)}\n`.slice(0, 100).replace('\n', i % 7 === 0 ? '\n' : ' ');
      text += delta;
      state = chatReducer(state, events(ev('text-delta', { iteration: 1, text: delta })));
      const open = state.live?.segments[0];
      assert.ok(open?.kind === 'text' && open.scan !== undefined);
      // Everything has been searched, and nothing twice.
      assert.equal(open.scan.searched, open.text.length);
      assert.equal(open.scan.examined, text.length, `after delta ${i}`);
    }
    assert.equal(text.length, 200_000);
    const open = state.live?.segments[0];
    assert.ok(open?.kind === 'text');
    assert.equal(open.text, text, 'no blank line: nothing was committed');
    assert.deepEqual(state.finished.map((i) => i.kind), ['user']);
  });

  test('paragraph breaks and fences split across deltas are found as in one piece', () => {
    const pieces = ['Intro line', '\n', '\n', 'Second ', 'para\n\n``', '`js\nconst a = 1;\n', '\nconst b = 2;\n``', '`\n', '\nTail'];
    let state = reduce([start]);
    for (const text of pieces) state = chatReducer(state, events(ev('text-delta', { iteration: 1, text })));
    const whole = pieces.join('');
    const [done, rest] = splitCompleteParagraphs(whole);
    const committed = state.finished.flatMap((i) => (i.kind === 'text' ? [i.text] : []));
    assert.deepEqual(committed, ['Intro line', 'Second para', '```js\nconst a = 1;\n\nconst b = 2;\n```']);
    assert.equal(committed.join('\n\n'), done);
    assert.deepEqual(segments(state), [{ kind: 'text', text: rest }]);
    assert.equal(rest, 'Tail');
  });

  test('1,000 turns: printed items are dropped, so the item list stays bounded; Ctrl+O still finds the last cut output', () => {
    let state = initialChatState('m');
    let longest = 0;
    for (let turn = 0; turn < 1000; turn++) {
      state = reduce(
        [
          { type: 'turn-start', prompt: `question ${turn}`, now: turn },
          events(
            runStart(`run_${turn}`),
            ev('text-delta', { iteration: 1, text: `First paragraph ${turn}.\n\nSecond` }, `run_${turn}`),
            ev('tool-start', { callId: `c${turn}`, toolName: 'lines', args: {} }, `run_${turn}`),
            ev('tool-end', { callId: `c${turn}`, toolName: 'lines', args: {}, result: turn === 500 ? 'a\nb\nc\nd\ne' : 'ok', durationMs: 1, cached: false }, `run_${turn}`),
          ),
          { type: 'turn-finish', status: 'completed', now: turn + 1 },
        ],
        state,
      );
      longest = Math.max(longest, state.finished.length);
      // The transcript printed what it was given (Transcript's onPrinted).
      const last = state.finished.at(-1);
      if (last !== undefined) state = chatReducer(state, { type: 'printed', throughId: last.id });
      assert.equal(state.finished.length, 0);
    }
    assert.ok(longest <= 6, `at most one turn's items are held (${longest})`);
    assert.equal(state.transcriptEpoch, 1000);
    assert.equal(state.lastCutTool?.callId, 'c500');
    assert.equal(state.lastCutTool?.output, 'a\nb\nc\nd\ne');
    // Only items up to the printed id go: a later one stays for the next <Static>.
    const next = reduce([{ type: 'notice', text: 'one' }, { type: 'notice', text: 'two' }], state);
    const first = next.finished[0];
    assert.ok(first !== undefined);
    const after = chatReducer(next, { type: 'printed', throughId: first.id });
    assert.deepEqual(after.finished.map((i) => (i.kind === 'notice' ? i.text : i.kind)), ['two']);
    assert.equal(after.transcriptEpoch, 1001);
    assert.equal(chatReducer(after, { type: 'printed', throughId: first.id }), after, 'nothing to drop: the same state');
  });

  test('a triggered guardrail is a notice (with the tool for tool stages), never the matched data', () => {
    const state = reduce([
      start,
      events(
        ev('guardrail-triggered', { guardrail: 'pii', stage: 'input', action: 'rewrite', reason: 'personal data found: 1 email', matches: ['[EMAIL]'] }),
        ev('guardrail-triggered', { guardrail: 'topic', stage: 'tool-arguments', action: 'block', reason: 'blocked topic: rm -rf', callId: 'c1', toolName: 'shell' }),
      ),
    ]);
    const notices = state.finished.flatMap((i) => (i.kind === 'notice' ? [i.text] : []));
    assert.deepEqual(notices, ['guardrail pii (input): rewrite — personal data found: 1 email', 'guardrail topic (tool-arguments of shell): block — blocked topic: rm -rf']);
  });
});
