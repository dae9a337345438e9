import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { Role } from '../../../lib/core/role.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';

const LONG = 'x'.repeat(2000);

describe('prompt compression', () => {
  test('below the threshold the call is untouched; above it older messages are cut, the last turns go verbatim, the memory is unchanged', async () => {
    const provider = new ScriptedProvider({ respond: (_r, i) => `answer ${i} ${LONG}` });
    const log = eventLog();
    const agent = new Agent({ provider, compress: { contextWindow: 4000, threshold: 0.5, keepRecent: 2, maxChars: 50 }, observers: [log.observer], runtime: testRuntime() });
    await agent.run(`first ${LONG}`);
    assert.equal(log.of('prompt-compressed').length, 0, 'the first call is small enough');
    await agent.run(`second ${LONG}`);
    await agent.run('third');
    const sent = provider.requests[2]!.messages;
    assert.equal(sent.length, 5);
    assert.match(sent[0]!.content, /^first x{44}… \[1956 characters compressed away\]$/);
    assert.match(sent[1]!.content, /compressed away/);
    assert.equal(sent[2]!.content, `second ${LONG}`, 'the kept turns are verbatim');
    assert.equal(sent[4]!.content, 'third');
    const [event] = log.of('prompt-compressed').slice(-1);
    assert.ok(event!.afterTokens < event!.beforeTokens);
    assert.equal(event!.messagesCompressed, 2);
    assert.equal(agent.history[0]!.content, `first ${LONG}`, 'the history keeps the full text');
    const steps = (await agent.run('fourth')).trace.steps.filter((s) => s.type === 'prompt_compressed');
    assert.equal(steps.length, 1);
  });

  test('when cutting is not enough, the oldest whole turns are left out and no tool result loses its call', async () => {
    let n = 0;
    const provider = new ScriptedProvider({
      respond: (request) => {
        const last = request.messages.at(-1)!;
        if (last.role === Role.USER) return { toolCalls: [{ toolName: 'get_weather', parameters: { city: `c${n++}` } }, { toolName: 'get_weather', parameters: { city: `d${n++}` } }] };
        return 'done';
      },
    });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool()], compress: { contextWindow: 300, threshold: 1, keepRecent: 1, maxChars: 10 }, observers: [log.observer], runtime: testRuntime() });
    for (let i = 0; i < 6; i++) await agent.run(`question ${i} ${'y'.repeat(100)}`);
    for (const request of provider.requests) {
      const calls = new Set(request.messages.flatMap((m) => (m.toolCalls ?? []).map((c) => c.id)));
      for (const m of request.messages) if (m.role === Role.TOOL) assert.ok(calls.has(m.toolCallId!), `orphaned ${m.toolCallId}`);
    }
    const last = provider.requests.at(-1)!.messages;
    assert.match(last[0]!.content, /^\[\d+ earlier messages left out to fit the context window\]$/);
    assert.equal(agent.history.length, 6 * 5, 'the history is whole');
    assert.ok(log.of('prompt-compressed').length > 0);
  });

  test('settings that could not take effect are refused', () => {
    const provider = new ScriptedProvider({ defaultModel: 'no-such-model' });
    assert.throws(() => new Agent({ provider, compressContext: true }), (e) => ConfigurationError.isInstance(e) && /context window of model "no-such-model"/.test(e.message));
    assert.throws(() => new Agent({ provider, compressThreshold: 0.5 }), /need compressContext/);
    assert.throws(() => new Agent({ provider, compress: { contextWindow: 1000, threshold: 2 } }), /threshold/);
    assert.ok(new Agent({ provider: new ScriptedProvider(), model: 'gpt-4o-mini', compressContext: true }));
  });
});
