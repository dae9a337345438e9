import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { assistantMessage, userMessage } from '../../../lib/core/message.js';
import { ConversationMemory } from '../../../lib/memory/conversation-memory.js';
import { MAX_SUMMARY_CHARS } from '../../../lib/memory/summarizer.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';
import { gate } from '../../support/gate.js';

describe('ConversationMemory on its own', () => {
  test('summarizeOnTrim folds trimmed messages into a summary made by its own provider, model and max tokens', async () => {
    const summarizer = new ScriptedProvider({ respond: (request) => `summary of ${request.messages[0]!.content.split('\n').filter((l) => l.startsWith('user:')).length} user lines` });
    const memory = new ConversationMemory({ maxMessages: 2, summarizeOnTrim: true, summarizeProvider: summarizer, summarizeModel: 'small-model', summarizeMaxTokens: 77 });
    await memory.append([userMessage('q1'), assistantMessage('a1')]);
    assert.equal(summarizer.calls, 0, 'nothing trimmed, no summary call');
    const report = await memory.append([userMessage('q2'), assistantMessage('a2')]);
    assert.deepEqual(report, { removed: 2, remaining: 2, summarized: 2, summaryChars: memory.summary.length });
    assert.equal(memory.summary, 'summary of 1 user lines');
    assert.equal(summarizer.requests[0]!.model, 'small-model');
    assert.equal(summarizer.requests[0]!.maxTokens, 77);
    await memory.append([userMessage('q3'), assistantMessage('a3')]);
    assert.match(summarizer.requests[1]!.messages[0]!.content, /Earlier summary:\nsummary of 1 user lines/, 'the previous summary is merged, not lost');
    assert.deepEqual(memory.contextMessages().map((m) => m.role), ['system', 'user', 'assistant']);
  });

  test('the summary never grows past 4,000 characters', async () => {
    const summarizer = new ScriptedProvider({ respond: () => 'word '.repeat(5000) });
    const memory = new ConversationMemory({ maxMessages: 2, summarizeOnTrim: true, summarizeProvider: summarizer });
    for (let i = 0; i < 6; i++) await memory.append([userMessage(`q${i}`), assistantMessage(`a${i}`)]);
    assert.ok(memory.summary.length <= MAX_SUMMARY_CHARS, `${memory.summary.length} chars`);
    assert.ok(memory.summary.length > MAX_SUMMARY_CHARS - 100);
  });

  test('<think> blocks never enter the history, on appends and on restore', async () => {
    const memory = new ConversationMemory();
    await memory.append([userMessage('q'), assistantMessage('<think>private plan</think>The answer')]);
    assert.equal(memory.messages[1]!.content, 'The answer');
    memory.restore([userMessage('q'), assistantMessage('<think>x</think>B')]);
    assert.equal(memory.messages[1]!.content, 'B');
    assert.ok(!JSON.stringify(memory.toJSON()).includes('think'));
  });

  test('branch() is an independent snapshot; clear() resets the summary too', async () => {
    const summarizer = new ScriptedProvider({ respond: () => 'S' });
    const memory = new ConversationMemory({ maxMessages: 2, summarizeOnTrim: true, summarizeProvider: summarizer });
    await memory.append([userMessage('q1'), assistantMessage('a1'), userMessage('q2'), assistantMessage('a2')]);
    const copy = memory.branch();
    await copy.append([userMessage('only in the branch'), assistantMessage('x')]);
    assert.deepEqual(memory.messages.map((m) => m.content), ['q2', 'a2']);
    assert.deepEqual(copy.messages.map((m) => m.content), ['only in the branch', 'x']);
    assert.equal(copy.summary, 'S');
    memory.clear();
    assert.equal(memory.summary, '');
    assert.equal(memory.size, 0);
    assert.equal(copy.summary, 'S');
  });

  test('messages handed out are copies', async () => {
    const memory = new ConversationMemory();
    const input = [userMessage('q')];
    await memory.append(input);
    input[0]!.content = 'changed by the caller';
    (memory.messages[0] as { content: string }).content = 'changed by a reader';
    assert.equal(memory.messages[0]!.content, 'q');
  });

  test('toJSON / fromJSON round-trips tool calls, reasoning parts and signatures; another version is refused', async () => {
    const memory = new ConversationMemory({ maxMessages: 10, maxTokens: 5000 });
    const reply = assistantMessage('', [{ id: 'c1', toolName: 'get_weather', parameters: { city: 'Faro', nested: { a: [1, 2] } }, thoughtSignature: 'AAEC/w==' }], [
      { type: 'thinking', provider: 'anthropic', text: 'hmm', signature: 'sig==' },
    ]);
    await memory.append([userMessage('q'), reply, { role: 'tool', content: '{"t":21}', toolCallId: 'c1', toolName: 'get_weather' }, assistantMessage('21°')]);
    const json = JSON.stringify(memory.toJSON());
    const restored = ConversationMemory.fromJSON(JSON.parse(json));
    assert.equal(JSON.stringify(restored.toJSON()), json);
    assert.equal(restored.maxMessages, 10);
    assert.equal(restored.maxTokens, 5000);
    assert.throws(() => ConversationMemory.fromJSON({ ...memory.toJSON(), version: 2 }), (e) => ConfigurationError.isInstance(e) && /version 2/.test(e.message));
    assert.throws(() => ConversationMemory.fromJSON({ ...memory.toJSON(), messages: [{ role: 'robot', content: '' }] }), /messages\[0\]\.role/);
  });

  test('summary settings without summarizeOnTrim are refused rather than ignored', () => {
    assert.throws(() => new ConversationMemory({ summarizeModel: 'x' }), ConfigurationError);
    assert.throws(() => new ConversationMemory({ maxMessages: 0 }), ConfigurationError);
  });
});

describe('ConversationMemory in the agent loop', () => {
  test('the agent keeps only the window; trims emit memory-trim; the model sees the window', async () => {
    const provider = new ScriptedProvider({ respond: (_r, i) => `answer ${i}` });
    const log = eventLog();
    const agent = new Agent({ provider, memory: { maxMessages: 4 }, observers: [log.observer], runtime: testRuntime() });
    for (let i = 0; i < 3; i++) await agent.run(`question ${i}`);
    assert.deepEqual(agent.history.map((m) => m.content), ['question 1', 'answer 1', 'question 2', 'answer 2']);
    assert.deepEqual(provider.requests[2]!.messages.map((m) => m.content), ['question 0', 'answer 0', 'question 1', 'answer 1', 'question 2']);
    assert.deepEqual(log.of('memory-trim').map((e) => [e.removed, e.remaining]), [[2, 4]]);
  });

  test('summaries use the agent provider and model by default; memory-summarize event and memory_summarize step', async () => {
    const provider = new ScriptedProvider({ respond: (request) => (request.system?.startsWith('You maintain a running summary') ? 'the user asked about Faro' : 'ok') });
    const log = eventLog();
    const agent = new Agent({ provider, model: 'main-model', summarizeOnTrim: true, memory: { maxMessages: 2 }, observers: [log.observer], runtime: testRuntime() });
    await agent.run('weather in Faro?');
    const second = await agent.run('and tomorrow?');
    const summaryCall = provider.requests.find((r) => r.system?.startsWith('You maintain'));
    assert.equal(summaryCall?.model, 'main-model');
    assert.equal(agent.memory?.summary, 'the user asked about Faro');
    assert.deepEqual(log.of('memory-summarize').map((e) => [e.messagesSummarized, e.summaryChars]), [[2, 25]]);
    assert.deepEqual(second.trace.steps.filter((s) => s.type === 'memory_summarize').map((s) => s.metadata), [{ messagesSummarized: 2, summaryChars: 25 }]);
    await agent.run('third');
    const sent = provider.requests.filter((r) => !r.system?.startsWith('You maintain')).at(-1)!.messages;
    assert.equal(sent[0]!.role, 'system');
    assert.match(sent[0]!.content, /the user asked about Faro/);
  });

  test('a failed summary is an error event; the answer stands and no message is lost', async () => {
    const provider = new ScriptedProvider({ respond: (request) => (request.system?.startsWith('You maintain') ? { error: new ProviderError('down', { provider: 'scripted', retryable: false }) } : 'ok') });
    const log = eventLog();
    const agent = new Agent({ provider, memory: { maxMessages: 2, summarizeOnTrim: true }, observers: [log.observer], runtime: testRuntime(), retry: { maxRetries: 0 } });
    await agent.run('one');
    const result = await agent.run('two');
    assert.equal(result.status, 'completed');
    assert.equal(agent.history.length, 4, 'kept over the limit until a summary succeeds');
    assert.deepEqual(log.of('error').map((e) => e.stage), ['llm']);
  });

  test('ask and batch neither read nor change the memory', async () => {
    const provider = new ScriptedProvider({ respond: () => 'ok' });
    const agent = new Agent({ provider, memory: { maxMessages: 10 }, runtime: testRuntime() });
    await agent.run('remember me');
    await agent.ask('standalone');
    await agent.batch(['b1', 'b2']);
    assert.deepEqual(provider.requests[1]!.messages.map((m) => m.content), ['standalone']);
    assert.deepEqual(agent.history.map((m) => m.content), ['remember me', 'ok']);
  });

  test('concurrent runs on one memory add their messages as whole blocks, never interleaved', async () => {
    const held = gate();
    const provider = new ScriptedProvider({
      respond: async (request) => {
        const last = request.messages.at(-1)!;
        if (last.content === 'slow') await held.opened;
        if (last.role === 'user') return { toolCalls: [{ toolName: 'get_weather', parameters: { city: last.content } }] };
        return `done ${request.messages.filter((m) => m.role === 'user').at(-1)!.content}`;
      },
    });
    const agent = new Agent({ provider, tools: [weatherTool()], memory: { maxMessages: 100 }, runtime: testRuntime() });
    const slow = agent.run('slow');
    await agent.run('fast');
    held.open();
    await slow;
    const contents = agent.history.map((m) => `${m.role}:${m.content}`);
    assert.equal(contents.length, 8);
    const firstBlock = contents.slice(0, 4).join('|');
    assert.match(firstBlock, /^user:fast\|assistant:\|tool:.*\|assistant:done fast$/);
    assert.match(contents.slice(4).join('|'), /^user:slow\|assistant:\|tool:.*\|assistant:done slow$/);
  });

  test('reset() clears the memory and its summary', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ respond: () => 'S' }), memory: { maxMessages: 2, summarizeOnTrim: true }, runtime: testRuntime() });
    await agent.run('a');
    await agent.run('b');
    assert.notEqual(agent.memory?.summary, '');
    agent.reset();
    assert.equal(agent.memory?.summary, '');
    assert.equal(agent.history.length, 0);
  });

  test('summary settings with a ready ConversationMemory are refused', () => {
    assert.throws(() => new Agent({ provider: new ScriptedProvider(), memory: new ConversationMemory(), summarizeModel: 'x' }), ConfigurationError);
    assert.throws(() => new Agent({ provider: new ScriptedProvider(), summarize: { onTrim: true, bogus: 1 } as never }), /summarize\.bogus/);
  });
});
