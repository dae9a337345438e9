import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
// @ts-expect-error -- a plain .mjs script without type declarations
import { isLoopbackHost } from '../../scripts/no-network.mjs';

const loopback = isLoopbackHost as (host: unknown) => boolean;

describe('scripts/no-network.mjs (loaded into every test process by scripts/run-tests.mjs)', () => {
  test('is active in this test process', { skip: process.env.AGENTLIB_TEST_NETWORK === '1' }, async () => {
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => {
      get('http://10.0.0.1:81/', () => assert.fail('no response expected')).on('error', resolve);
    });
    assert.equal(error.code, 'ENETUNREACH');
    assert.match(error.message, /tests must not use the network: a connection to 10\.0\.0\.1:81/);
  });

  test('fetch to a public host fails at once, naming the host, before any DNS lookup', { skip: process.env.AGENTLIB_TEST_NETWORK === '1' }, async () => {
    const started = Date.now();
    const error = await fetch('https://api.openai.com/v1/models').then(
      () => assert.fail('no response expected'),
      (e: unknown) => e as Error & { cause?: Error },
    );
    assert.match(String(error.cause?.message), /api\.openai\.com:443/);
    assert.ok(Date.now() - started < 2000);
  });

  test('loopback connections still work', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'ok');
      assert.equal(await (await fetch(`http://localhost:${port}/`)).text(), 'ok');
    } finally {
      server.close();
    }
  });

  test('what counts as loopback', () => {
    for (const host of [undefined, '', 'localhost', 'LOCALHOST', '127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) assert.equal(loopback(host), true, String(host));
    for (const host of ['10.0.0.1', '169.254.169.254', 'example.com', '128.0.0.1', '::ffff:10.0.0.1', 'localhost.example', '2130706433']) assert.equal(loopback(host), false, host);
  });
});
