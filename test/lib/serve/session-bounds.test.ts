import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InMemorySessionStore, type SessionEviction } from '../../../lib/serve/index.js';
import type { Message } from '../../../lib/core/message.js';
import { post, readSse, scriptedAgent, serve, type ErrorBody } from './helpers.js';

// Issue 13, item 2: the in-memory session store was bounded by count only (3,500 sessions of
// 1 MB prompts grew the server to 3.7 GB). It is bounded by bytes too, least recently used first,
// each eviction reported; and one session is capped (413).

function user(text: string): Message[] {
  return [{ role: 'user', content: text }];
}

/** The size the store counts for `messages`: their JSON in UTF-8. */
function size(messages: Message[]): number {
  return Buffer.byteLength(JSON.stringify(messages));
}

describe('session memory bounds', () => {
  test('InMemorySessionStore: bounded by bytes, least recently used evicted first, each eviction reported', async () => {
    const evicted: SessionEviction[] = [];
    const one = size(user('x'.repeat(1000)));
    const store = new InMemorySessionStore({ maxBytes: 3 * one, onEvict: (eviction) => evicted.push(eviction) });
    for (const id of ['a', 'b', 'c']) await store.save(id, user('x'.repeat(1000)));
    assert.equal(store.bytes, 3 * one);
    assert.deepEqual(evicted, []);
    assert.ok((await store.load('a')) !== undefined); // 'a' is now the most recently used
    await store.save('d', user('x'.repeat(1000)));
    assert.deepEqual(evicted, [{ sessionId: 'b', bytes: one, reason: 'bytes' }]);
    assert.equal(await store.load('b'), undefined);
    assert.equal(store.size, 3);
    assert.ok(store.bytes <= 3 * one);
    // Saving a session again counts its new size, not both.
    await store.save('a', user('y'));
    assert.equal(store.bytes, 2 * one + size(user('y')));
    // Multi-byte text counts its UTF-8 bytes.
    await store.save('e', user('é'.repeat(10)));
    assert.equal(store.bytes, 2 * one + size(user('y')) + size(user('é'.repeat(10))));
  });

  test('a session larger than the whole store is not kept (reported) and evicts nothing else', async () => {
    const evicted: SessionEviction[] = [];
    const store = new InMemorySessionStore({ maxBytes: 500, onEvict: (eviction) => evicted.push(eviction) });
    await store.save('small', user('hi'));
    await store.save('huge', user('x'.repeat(1000)));
    assert.deepEqual(evicted, [{ sessionId: 'huge', bytes: size(user('x'.repeat(1000))), reason: 'bytes' }]);
    assert.ok((await store.load('small')) !== undefined);
    assert.equal(await store.load('huge'), undefined);
  });

  test('the count bound reports its evictions too; deleting and expiring give the bytes back', async () => {
    let now = 0;
    const evicted: SessionEviction[] = [];
    const store = new InMemorySessionStore({ maxSessions: 1, ttlMs: 100, now: () => now, onEvict: (eviction) => evicted.push(eviction) });
    await store.save('a', user('hi'));
    await store.save('b', user('hi'));
    assert.deepEqual(evicted, [{ sessionId: 'a', bytes: size(user('hi')), reason: 'count' }]);
    await store.delete('b');
    assert.equal(store.bytes, 0);
    await store.save('c', user('hi'));
    now = 500;
    assert.equal(await store.load('c'), undefined);
    assert.equal(store.bytes, 0);
  });

  test('served: many large sessions stay within the byte bound, and each eviction is a log line', async () => {
    const notices: string[] = [];
    const prompt = 'p'.repeat(10_000);
    const served = serve(scriptedAgent({ loop: true, replies: ['ok'] }), { sessions: { maxBytes: 50_000 }, logNotice: (line) => notices.push(line) });
    for (let i = 0; i < 20; i++) assert.equal((await post(served, '/invoke', { prompt, session_id: `s${i}` })).status, 200);
    // About 10 KB each: 4 fit; the 16 least recently used were dropped, each reported.
    assert.equal(notices.length, 16, notices.join('\n'));
    assert.match(notices[0] ?? '', /^session "s0" \(\d+ bytes\) dropped from the in-memory session store, least recently used, to stay within its byte limit$/);
    const latest = (await (await post(served, '/invoke', { prompt: 'again', session_id: 's19' })).json()) as { status: string };
    assert.equal(latest.status, 'completed');
  });

  test('one session is capped: a request that would take it past maxSessionBytes is a 413 before it runs', async () => {
    const agent = scriptedAgent({ loop: true, replies: ['ok'] });
    const served = serve(agent, { maxSessionBytes: 2000 });
    const prompt = 'q'.repeat(1000);
    assert.equal((await post(served, '/invoke', { prompt, session_id: 'grows' })).status, 200);
    const calls = agent.provider.calls;
    const refused = await post(served, '/invoke', { prompt, session_id: 'grows' });
    assert.equal(refused.status, 413);
    const body = (await refused.json()) as ErrorBody;
    assert.equal(body.error.type, 'request_too_large_error');
    assert.match(body.error.message, /^Session "grows" would hold \d+ bytes with this request, over the limit of 2000 bytes per session; start a new session_id$/);
    assert.equal(agent.provider.calls, calls, 'the model was not called');
    // The session is as it was: a smaller turn still fits; another session starts fresh.
    assert.equal((await post(served, '/invoke', { prompt: 'short', session_id: 'grows' })).status, 200);
    assert.equal((await post(served, '/invoke', { prompt, session_id: 'other' })).status, 200);
    // On /stream the session is loaded once the stream is open: an error event with status 413.
    const events = await readSse(await post(served, '/stream', { prompt, session_id: 'grows' }));
    assert.deepEqual(events.at(-1)?.event, 'error');
    assert.equal((events.at(-1)?.data as { status: number }).status, 413);
  });
});

describe('session memory bounds: idle-expired sessions', () => {
  test('expired sessions count for nothing and are dropped silently, never reported as byte evictions', async () => {
    const evicted: SessionEviction[] = [];
    let now = 0;
    const one = size(user('x'.repeat(1000)));
    const store = new InMemorySessionStore({ maxBytes: 2 * one, ttlMs: 1000, now: () => now, onEvict: (eviction) => evicted.push(eviction) });
    await store.save('old-1', user('x'.repeat(1000)));
    await store.save('old-2', user('x'.repeat(1000)));
    now = 5000;
    assert.equal(store.bytes, 0, 'expired sessions hold no bytes');
    assert.equal(store.size, 0);
    await store.save('fresh-1', user('x'.repeat(1000)));
    await store.save('fresh-2', user('x'.repeat(1000)));
    assert.deepEqual(evicted, [], 'no live session was evicted, and no expiry was reported as one');
    assert.ok((await store.load('fresh-1')) !== undefined);
    assert.ok((await store.load('fresh-2')) !== undefined);
  });
});
