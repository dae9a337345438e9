import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { MemorySessionStore } from '../../../lib/sessions/memory-session-store.js';
import { SQLiteSessionStore } from '../../../lib/sessions/sqlite-session-store.js';
import { closeAllStorage } from '../../../lib/storage/index.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentlib-session-agent-'));
});
after(async () => {
  await closeAllStorage();
  await rm(dir, { recursive: true, force: true });
});

const contents = (messages: readonly { content: string }[]): string[] => messages.map((m) => m.content);

describe('an agent on a stored session', () => {
  test('a new agent (a new process) continues the conversation; session-load / session-save events and steps', async () => {
    const path = join(dir, 'continue.db');
    const provider = new ScriptedProvider({ respond: (_r, i) => `answer ${i}` });
    const first = new Agent({ provider, session: { store: new SQLiteSessionStore({ path }), id: 'alice' }, runtime: testRuntime() });
    await first.run('question 0');
    await first.run('question 1');
    const log = eventLog();
    const store = new SQLiteSessionStore({ path });
    const second = new Agent({ provider, session: { store, id: 'alice' }, observers: [log.observer], runtime: testRuntime() });
    const result = await second.run('question 2');
    assert.deepEqual(contents(provider.requests[2]!.messages), ['question 0', 'answer 0', 'question 1', 'answer 1', 'question 2']);
    assert.deepEqual(log.of('session-load').map((e) => [e.sessionId, e.messages]), [['alice', 4]]);
    assert.deepEqual(log.of('session-save').map((e) => [e.sessionId, e.messages]), [['alice', 6]]);
    assert.deepEqual(result.trace.steps.filter((s) => s.type.startsWith('session_')).map((s) => s.type), ['session_load', 'session_save']);
    assert.equal((await store.load('alice'))?.messages.length, 6);
  });

  test('tool round trips are stored whole; the memory window applies on load while the store keeps everything', async () => {
    const store = new MemorySessionStore();
    const provider = new ScriptedProvider({
      respond: (request) => (request.messages.at(-1)!.role === 'user' ? { toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Faro' }, thoughtSignature: 'c2ln' }] } : 'sunny'),
    });
    const agent = new Agent({ provider, tools: [weatherTool()], session: { store, id: 'w' }, runtime: testRuntime() });
    await agent.run('weather?');
    await agent.run('and again?');
    const stored = (await store.load('w'))!;
    assert.equal(stored.messages.length, 8);
    assert.equal(stored.messages[1]!.toolCalls?.[0]?.thoughtSignature, 'c2ln');
    const windowed = new Agent({ provider, tools: [weatherTool()], session: { store, id: 'w' }, memory: { maxMessages: 4 }, runtime: testRuntime() });
    await windowed.run('third');
    assert.deepEqual(contents(provider.requests.at(-2)!.messages).slice(0, 5), ['and again?', '', contents(stored.messages.slice(6, 7))[0], 'sunny', 'third']);
    assert.equal((await store.load('w'))!.messages.length, 12, 'the store keeps the whole conversation');
  });

  test('<think> never reaches the store; ask and batch neither load nor save; reset replaces the session on the next save', async () => {
    const store = new MemorySessionStore();
    const provider = new ScriptedProvider({ respond: (_r, i) => `<think>plan ${i}</think>answer ${i}` });
    const agent = new Agent({ provider, session: { store, id: 's' }, runtime: testRuntime() });
    await agent.run('one');
    assert.deepEqual(contents((await store.load('s'))!.messages), ['one', 'answer 0']);
    await agent.ask('standalone');
    await agent.batch(['b']);
    assert.equal((await store.load('s'))!.messages.length, 2);
    agent.reset();
    await agent.run('fresh start');
    assert.deepEqual(contents((await store.load('s'))!.messages), ['fresh start', 'answer 3']);
  });

  test('flat sessionStore + sessionId work; a session with both forms, or without a store, is refused', () => {
    const store = new MemorySessionStore();
    const provider = new ScriptedProvider();
    assert.equal(new Agent({ provider, sessionStore: store, sessionId: 'x' }).session?.id, 'x');
    assert.throws(() => new Agent({ provider, session: { store, id: 'a' }, sessionId: 'b' }), ConfigurationError);
    assert.throws(() => new Agent({ provider, sessionId: 'b' }), /must be a SessionStore/);
  });
});

describe('agent YAML: session:', () => {
  test('the file names the store; the agent name is the namespace; a session without an id is refused', async () => {
    const file = join(dir, 'agent.yaml');
    await writeFile(file, `name: Support Bot\nprovider: openai\nsession:\n  store: file\n  path: ${JSON.stringify(join(dir, 'sessions'))}\n  id: bob\n`);
    const provider = new ScriptedProvider({ respond: () => 'hi' });
    const agent = await loadAgent(file, { provider, env: {} });
    await agent.run('hello');
    assert.equal(agent.session?.store.namespace, 'Support-Bot');
    assert.deepEqual(contents((await agent.session.store.load('bob'))!.messages), ['hello', 'hi']);
    const other = await loadAgent(file, { provider, env: {}, sessionId: 'carol' });
    assert.equal(other.session?.id, 'carol');
    const noId = join(dir, 'no-id.yaml');
    await writeFile(noId, 'provider: openai\nsession:\n  store: memory\n');
    await assert.rejects(loadAgent(noId, { provider, env: {} }), (e) => ConfigurationError.isInstance(e) && /session: has no id/.test(e.message));
    const badUrl = join(dir, 'bad.yaml');
    await writeFile(badUrl, 'provider: openai\nsession:\n  store: sqlite\n  url: redis://x\n  id: a\n');
    await assert.rejects(loadAgent(badUrl, { provider, env: {} }), /session.url applies to store: redis only/);
  });
});
