import type { ServerResponse } from 'node:http';

/**
 * Writes a streamed response `batch` events at a time (one `setImmediate` between batches, like a
 * server flushing its buffer), after printing `{ firstByteNs, requestBytes }` as one line on
 * stdout for the client to read. The monotonic clock is system-wide (CLOCK_MONOTONIC), so the
 * client can compare the timestamp with its own `process.hrtime.bigint()`.
 */
export function writeStream(res: ServerResponse, contentType: string, events: readonly Buffer[], batch: number, requestBytes: number, requestIdHeader = 'x-request-id'): void {
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', [requestIdHeader]: 'req_bench' });
  let index = 0;
  process.stdout.write(`${JSON.stringify({ firstByteNs: String(process.hrtime.bigint()), requestBytes })}\n`);
  const step = (): void => {
    if (res.destroyed) return;
    const end = Math.min(index + batch, events.length);
    for (; index < end; index++) res.write(events[index]);
    if (index < events.length) setImmediate(step);
    else res.end();
  };
  step();
}
