import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SseStream, type SseSink } from '../../../lib/serve/sse-stream.js';

function sink(): SseSink & { writes: string[]; ended: number; headerFlushes: number } {
  const out = {
    writes: [] as string[],
    ended: 0,
    headerFlushes: 0,
    write: (text: string) => void out.writes.push(text),
    end: () => void (out.ended += 1),
    flushHeaders: () => void (out.headerFlushes += 1),
  };
  return out;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SseStream', () => {
  test('the frames of one event-loop turn go out in one write; a later frame in its own', async () => {
    const out = sink();
    const sse = new SseStream(out, 0);
    for (let i = 0; i < 100; i++) sse.send('text-delta', { text: `t${i}` });
    assert.deepEqual(out.writes, [], 'nothing is written during the turn');
    await turn();
    assert.equal(out.writes.length, 1);
    assert.equal((out.writes[0] ?? '').match(/^event: text-delta$/gm)?.length, 100);
    assert.ok((out.writes[0] ?? '').startsWith('event: text-delta\ndata: {"text":"t0"}\n\n'));
    sse.data('[DONE]');
    await turn();
    assert.deepEqual(out.writes.slice(1), ['data: [DONE]\n\n']);
    assert.equal(out.headerFlushes, 0, 'the headers went out with the first frames');
  });

  test('close writes what is queued, then ends once; abandon drops it', async () => {
    const out = sink();
    const sse = new SseStream(out, 0);
    sse.send('run-end', { ok: true });
    sse.close();
    sse.close();
    assert.deepEqual(out.writes, ['event: run-end\ndata: {"ok":true}\n\n']);
    assert.equal(out.ended, 1);
    assert.equal(sse.closed, true);
    sse.send('late', {});
    await turn();
    assert.equal(out.writes.length, 1, 'nothing after close');

    const gone = sink();
    const abandoned = new SseStream(gone, 0);
    abandoned.send('text-delta', { text: 'x' });
    abandoned.abandon();
    await turn();
    abandoned.close();
    assert.deepEqual(gone.writes, []);
    assert.equal(gone.ended, 0, 'a stream the client left is not ended by us');
  });

  test('headers are flushed on their own when the first turn has no frame; a failing write abandons', async () => {
    const out = sink();
    const sse = new SseStream(out, 0);
    await turn();
    assert.equal(out.headerFlushes, 1);
    const broken: SseSink = {
      write: () => {
        throw new Error('closed');
      },
      end: () => undefined,
    };
    const failing = new SseStream(broken, 0);
    failing.send('x', {});
    await turn();
    assert.equal(failing.closed, true);
    sse.close();
  });

  test('keep-alive comments while idle', async () => {
    const out = sink();
    const sse = new SseStream(out, 20);
    // Two keep-alives at least (polled: a loaded machine may run the interval late, never early).
    const keepAlives = (): number => out.writes.filter((w) => w === ': keep-alive\n\n').length;
    const deadline = Date.now() + 3000;
    while (keepAlives() < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    sse.close();
    assert.ok(keepAlives() >= 2, JSON.stringify(out.writes));
    assert.ok(out.writes.every((w) => w === ': keep-alive\n\n' || !w.startsWith(':')), 'only keep-alive comments while idle');
  });
});
