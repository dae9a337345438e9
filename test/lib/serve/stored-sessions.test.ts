import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { ProviderRequest } from '../../../lib/providers/spec.js';
import { createServeApp } from '../../../lib/serve/app.js';
import { MemorySessionStore } from '../../../lib/sessions/memory-session-store.js';
import { SQLiteSessionStore } from '../../../lib/sessions/sqlite-session-store.js';
import { closeAllStorage } from '../../../lib/storage/index.js';
import { lookupTool, post, scriptedAgent, serve } from './helpers.js';

function echoUsers(request: ProviderRequest): string {
  return `saw: ${request.messages.filter((m) => m.role === 'user').map((m) => m.content).join(' | ')}`;
}

const dirs: string[] = [];
after(async () => {
  await closeAllStorage();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('serve on a persistent session store', () => {
  test('two apps on one SQLite file (two server processes) continue one conversation, tool calls included', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlib-serve-sessions-'));
    dirs.push(dir);
    const path = join(dir, 'agentlib.db');
    const agent = scriptedAgent({ replies: [{ toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }] }, 'It shipped.'], respond: echoUsers, record: true }, { tools: [lookupTool()] });
    const a = serve(agent, { sessions: new SQLiteSessionStore({ path, namespace: 'shop' }) });
    const b = serve(agent, { sessions: new SQLiteSessionStore({ path, namespace: 'shop' }) });
    const first = (await (await post(a, '/invoke', { prompt: 'Where is 42?', session_id: 'alice' })).json()) as { content: string; session_id: string };
    assert.equal(first.content, 'It shipped.');
    assert.equal(first.session_id, 'alice');
    const second = (await (await post(b, '/invoke', { prompt: 'And when?', session_id: 'alice' })).json()) as { content: string };
    assert.equal(second.content, 'saw: Where is 42? | And when?');
    assert.ok(agent.provider.requests.at(-1)!.messages.some((m) => m.role === 'tool'), 'the tool result of turn one came from the other app');
    const third = (await (await post(a, '/invoke', { prompt: 'Thanks', session_id: 'alice' })).json()) as { content: string };
    assert.equal(third.content, 'saw: Where is 42? | And when? | Thanks');
    const stored = await new SQLiteSessionStore({ path, namespace: 'shop' }).load('alice');
    assert.deepEqual(stored?.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });

  test('a failed run stores nothing; a hostile session_id is refused before anything is written', async () => {
    const store = new MemorySessionStore();
    const served = serve(scriptedAgent({ replies: ['first', { error: new ProviderError('down', { provider: 'scripted', status: 400 }) }], respond: echoUsers }), { sessions: store });
    assert.equal((await post(served, '/invoke', { prompt: 'one', session_id: 's' })).status, 200);
    assert.equal((await post(served, '/invoke', { prompt: 'two', session_id: 's' })).status, 502);
    assert.equal((await store.load('s'))?.messages.length, 2);
    assert.equal((await post(served, '/invoke', { prompt: 'x', session_id: '../../etc/passwd' })).status, 400);
    assert.deepEqual((await store.list()).map((s) => s.id), ['s']);
  });

  test('a persistent store needs the agent as a config, without a session of its own', () => {
    const store = new MemorySessionStore();
    const config = scriptedAgent({ replies: ['x'] });
    assert.throws(() => createServeApp({ agent: () => new Agent(config), sessions: store }), /needs `agent` as an AgentConfig/);
    assert.throws(() => createServeApp({ agent: { ...config, session: { store, id: 'x' } }, sessions: store }), /must not bind a session/);
  });
});
