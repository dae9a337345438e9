import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunStatus } from '../../../lib/events/types.js';
import { listenLocal, post, readSse, scriptedAgent, serve, until } from './helpers.js';

describe('graceful shutdown', () => {
  test('in-flight runs finish within the grace period while new requests get 503', async () => {
    const served = serve(scriptedAgent({ replies: [{ text: 'finished in time', delayMs: 150 }, 'never'] }));
    const server = await listenLocal(served);
    const inflight = fetch(`${server.url}/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"slow"}' });
    await until(() => served.activeRuns === 1, 2000, 'the run to start');
    const closing = server.close(5000);
    const refused = await fetch(`${server.url}/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"late"}' });
    assert.equal(refused.status, 503);
    assert.equal(((await refused.json()) as { error: { type: string } }).error.type, 'service_unavailable_error');
    const done = await inflight;
    assert.equal(done.status, 200);
    assert.equal(((await done.json()) as { content: string }).content, 'finished in time');
    assert.deepEqual(await closing, { finished: 1, aborted: 0 });
    await assert.rejects(fetch(`${server.url}/health`), 'the server is closed');
  });

  test('runs still going after the grace period are aborted: 503 for /invoke, an error event for /stream', async () => {
    const seen: RunStatus[] = [];
    const served = serve(
      scriptedAgent({ replies: [{ text: 'x', delayMs: 10_000 }, { text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 500 }] }, { observers: [{ name: 's', onRunEnd: (e) => void seen.push(e.status) }] }),
    );
    const invoke = post(served, '/invoke', { prompt: 'forever' });
    const stream = post(served, '/stream', { prompt: 'slow stream' });
    await until(() => served.activeRuns === 2, 2000, 'both runs to start');
    const started = performance.now();
    const result = await served.shutdown(100);
    assert.deepEqual(result, { finished: 0, aborted: 2 });
    assert.ok(performance.now() - started < 3000);
    const res = await invoke;
    assert.equal(res.status, 503);
    const events = await readSse(await stream);
    assert.equal(events.at(-1)?.event, 'error');
    assert.equal((events.at(-1)?.data as { status: number }).status, 503);
    await until(() => seen.length === 2, 2000, 'both runs to end');
    assert.deepEqual(seen, ['cancelled', 'cancelled']);
  });
});
