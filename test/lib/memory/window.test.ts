import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assistantMessage, toolMessage, userMessage, systemMessage, type Message } from '../../../lib/core/message.js';
import { Role } from '../../../lib/core/role.js';
import { ConversationMemory } from '../../../lib/memory/conversation-memory.js';
import { isWindowStart, windowStart } from '../../../lib/memory/window.js';

/** A turn with `parallel` tool calls answered together, then a final answer. */
function toolTurn(n: number, parallel: number): Message[] {
  const calls = Array.from({ length: parallel }, (_, i) => ({ id: `c${n}_${i}`, toolName: 'lookup', parameters: { i } }));
  return [
    userMessage(`question ${n}`),
    assistantMessage('', calls),
    ...calls.map((call) => toolMessage(call, `result ${call.id}`)),
    assistantMessage(`answer ${n}`),
  ];
}

/** Every problem of a window: an orphaned tool result, a call without its result, a bad first role. */
function windowProblems(window: readonly Message[]): string[] {
  const problems: string[] = [];
  const first = window[0];
  if (first && first.role !== Role.USER && first.role !== Role.SYSTEM) problems.push(`starts with ${first.role}`);
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const message of window) {
    for (const call of message.toolCalls ?? []) calls.add(call.id);
    if (message.role === Role.TOOL) {
      if (!calls.has(message.toolCallId!)) problems.push(`orphaned result ${message.toolCallId}`);
      answered.add(message.toolCallId!);
    }
  }
  for (const id of calls) if (!answered.has(id)) problems.push(`call ${id} without result`);
  return problems;
}

/** Deterministic pseudo-random numbers (a test must not depend on Math.random). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('the conversation window', () => {
  test('a tool result is never a window start, nor an assistant message', () => {
    const history = toolTurn(1, 2);
    assert.deepEqual(history.map((_, i) => isWindowStart(history, i)), [true, false, false, false, false]);
  });

  test('keeps the latest messages within maxMessages, starting at a user message', async () => {
    const memory = new ConversationMemory({ maxMessages: 4 });
    for (let i = 0; i < 5; i++) await memory.append([userMessage(`q${i}`), assistantMessage(`a${i}`)]);
    assert.deepEqual(memory.messages.map((m) => m.content), ['q3', 'a3', 'q4', 'a4']);
  });

  test('with an odd limit the window opens on the next user message rather than an answer', async () => {
    const memory = new ConversationMemory({ maxMessages: 3 });
    for (let i = 0; i < 3; i++) await memory.append([userMessage(`q${i}`), assistantMessage(`a${i}`)]);
    assert.deepEqual(memory.messages.map((m) => m.content), ['q2', 'a2']);
  });

  test('parallel tool calls: after every trim of random histories, no orphaned result and no bare call', async () => {
    const random = lcg(7);
    for (let trial = 0; trial < 40; trial++) {
      const maxMessages = 1 + Math.floor(random() * 12);
      const memory = new ConversationMemory({ maxMessages });
      for (let turn = 0; turn < 8; turn++) {
        const parallel = Math.floor(random() * 4);
        await memory.append(parallel === 0 ? [userMessage(`q${turn}`), assistantMessage(`a${turn}`)] : toolTurn(turn, parallel));
        const window = memory.messages;
        assert.deepEqual(windowProblems(window), [], `trial ${trial}, turn ${turn}, maxMessages ${maxMessages}`);
        // The latest turn is always kept whole (even when it alone is over the limit).
        assert.equal(window.at(-1)?.content.endsWith(`${turn}`), true);
      }
    }
  });

  test('a turn over the limit on its own is kept whole rather than cut', async () => {
    const memory = new ConversationMemory({ maxMessages: 2 });
    await memory.append([userMessage('hi'), assistantMessage('hello')]);
    const turn = toolTurn(9, 3);
    await memory.append(turn);
    assert.deepEqual(memory.messages, turn);
  });

  test('the token limit drops the oldest turns', () => {
    const history = [userMessage('x'.repeat(400)), assistantMessage('a'), userMessage('short'), assistantMessage('b')];
    const countTokens = (m: Message): number => Math.ceil(m.content.length / 4);
    assert.equal(windowStart(history, { maxMessages: undefined, maxTokens: 10, countTokens }), 2);
    assert.equal(windowStart(history, { maxMessages: undefined, maxTokens: 200, countTokens }), 0);
  });

  test('a system message may open the window', () => {
    const history = [userMessage('old'), assistantMessage('old answer'), systemMessage('note'), userMessage('new'), assistantMessage('new answer')];
    assert.equal(windowStart(history, { maxMessages: 3, maxTokens: undefined, countTokens: () => 1 }), 2);
  });
});
