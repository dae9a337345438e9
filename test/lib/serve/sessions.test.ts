import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { ProviderRequest } from '../../../lib/providers/spec.js';
import { InMemorySessionStore } from '../../../lib/serve/index.js';
import { KeyedLock } from '../../../lib/serve/keyed-lock.js';
import { gate } from '../../support/gate.js';
import { listenLocal, lookupTool, post, readSse, scriptedAgent, serve } from './helpers.js';

/** Replies with every user message the model was sent, so a reply shows what history it saw. */
function echoUsers(request: ProviderRequest): string {
  return `saw: ${request.messages.filter((m) => m.role === 'user').map((m) => m.content).join(' | ')}`;
}

async function invoke(url: string, body: unknown): Promise<{ content: string; session_id?: string }> {
  const res = await fetch(`${url}/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(res.status, 200);
  return (await res.json()) as { content: string; session_id?: string };
}

describe('sessions', () => {
  test('session_id continues a conversation, tool calls included; other ids start fresh', async () => {
    const agent = scriptedAgent({
      replies: [{ toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }] }, 'It shipped.'],
      respond: echoUsers,
      record: true,
    }, { tools: [lookupTool()] });
    const store = new InMemorySessionStore();
    const served = serve(agent, { sessions: store });
    const first = (await (await post(served, '/invoke', { prompt: 'Where is 42?', session_id: 'alice' })).json()) as { content: string; session_id: string };
    assert.equal(first.content, 'It shipped.');
    assert.equal(first.session_id, 'alice');
    const saved = await store.load('alice');
    assert.deepEqual(saved?.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
    const second = (await (await post(served, '/invoke', { prompt: 'And when?', session_id: 'alice' })).json()) as { content: string };
    assert.equal(second.content, 'saw: Where is 42? | And when?');
    const sent = agent.provider.requests.at(-1)?.messages ?? [];
    assert.ok(sent.some((m) => m.role === 'tool'), 'the tool result of turn one was sent again');
    const other = (await (await post(served, '/invoke', { prompt: 'Hello', session_id: 'bob' })).json()) as { content: string };
    assert.equal(other.content, 'saw: Hello');
  });

  test('a failed run does not change the session', async () => {
    const store = new InMemorySessionStore();
    const served = serve(scriptedAgent({ replies: ['first', { error: new ProviderError('down', { provider: 'scripted', status: 400 }) }], respond: echoUsers }), { sessions: store });
    assert.equal((await post(served, '/invoke', { prompt: 'one', session_id: 's' })).status, 200);
    assert.equal((await post(served, '/invoke', { prompt: 'two', session_id: 's' })).status, 502);
    assert.equal((await store.load('s'))?.length, 2, 'only the successful turn is stored');
    const third = (await (await post(served, '/invoke', { prompt: 'three', session_id: 's' })).json()) as { content: string };
    assert.equal(third.content, 'saw: one | three');
  });

  test('two concurrent sessions over a real server never see each other', async () => {
    // Each reply is delayed so the two conversations really interleave.
    const served = serve(scriptedAgent({ respond: (request) => ({ text: echoUsers(request), delayMs: 20 }) }));
    const server = await listenLocal(served);
    try {
      const conversation = async (name: string): Promise<string[]> => {
        const replies: string[] = [];
        for (let turn = 1; turn <= 4; turn++) replies.push((await invoke(server.url, { prompt: `${name}-${turn}`, session_id: `session-${name}` })).content);
        return replies;
      };
      const [alice, bob] = await Promise.all([conversation('alice'), conversation('bob')]);
      assert.equal(alice.at(-1), 'saw: alice-1 | alice-2 | alice-3 | alice-4');
      assert.equal(bob.at(-1), 'saw: bob-1 | bob-2 | bob-3 | bob-4');
      for (const reply of alice) assert.doesNotMatch(reply, /bob/);
      for (const reply of bob) assert.doesNotMatch(reply, /alice/);
      // and streaming requests of a session see it too
      const res = await fetch(`${server.url}/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'alice-5', session_id: 'session-alice' }) });
      const end = (await readSse(res)).at(-1);
      assert.equal((end?.data as { content: string }).content, 'saw: alice-1 | alice-2 | alice-3 | alice-4 | alice-5');
    } finally {
      await server.close(0);
    }
  });

  test('concurrent requests of one session take turns (no lost turn)', async () => {
    const store = new InMemorySessionStore();
    const served = serve(scriptedAgent({ respond: (request) => ({ text: echoUsers(request), delayMs: 15 }) }), { sessions: store });
    const results = await Promise.all(['a', 'b', 'c'].map((p) => post(served, '/invoke', { prompt: p, session_id: 'shared' })));
    assert.deepEqual(results.map((r) => r.status), [200, 200, 200]);
    const history = await store.load('shared');
    assert.deepEqual(history?.filter((m) => m.role === 'user').map((m) => m.content), ['a', 'b', 'c']);
  });

  test('KeyedLock serialises one key and runs different keys in parallel', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const task = (name: string, until?: Promise<void>) => async (): Promise<void> => {
      order.push(`start:${name}`);
      await until;
      order.push(`end:${name}`);
    };
    // k1 holds key k until the test opens the gate: o1 (another key) runs meanwhile, k2 waits.
    const held = gate();
    const k1 = lock.run('k', task('k1', held.opened));
    const k2 = lock.run('k', task('k2'));
    const o1 = lock.run('other', task('o1'));
    await new Promise((resolve) => setImmediate(resolve)); // o1 needs microtasks only (no timer)
    assert.deepEqual(order, ['start:k1', 'start:o1', 'end:o1']);
    held.open();
    await Promise.all([k1, k2, o1]);
    assert.deepEqual(order.slice(3), ['end:k1', 'start:k2', 'end:k2']);
    assert.equal(lock.size, 0);
    await assert.rejects(lock.run('k', () => Promise.reject(new Error('x'))));
    await lock.run('k', task('after-failure'));
    assert.equal(order.at(-1), 'end:after-failure');
  });

  test('InMemorySessionStore: copies, LRU bound, idle expiry', async () => {
    let now = 0;
    const store = new InMemorySessionStore({ maxSessions: 2, ttlMs: 100, now: () => now });
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await store.save('a', messages);
    messages[0]!.content = 'changed';
    assert.equal((await store.load('a'))?.[0]?.content, 'hi');
    await store.save('b', messages);
    await store.save('c', messages);
    assert.equal(store.size, 2);
    assert.equal(await store.load('a'), undefined, 'the least recently saved was dropped');
    now = 500;
    assert.equal(await store.load('b'), undefined, 'expired');
  });
});
