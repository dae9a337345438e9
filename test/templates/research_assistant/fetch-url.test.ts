import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { safeFetch } from '../../../lib/rag/web/safe-fetch.js';
import { fetchUrl } from '../../../templates/research_assistant/tools.js';
import { toolContext } from '../tool-context.js';

let server: Server;
let origin: string;
let port: number;
/** How the last /big response ended: closed before it finished sending (undefined until it ended). */
let bigClosedEarly: boolean | undefined;

const PAGE = '<html><head><title>Cold brew &amp; you</title><script>var tracking = true;</script></head><body><h1>Cold brew</h1><p>Steep for 12&ndash;18 hours.</p></body></html>';

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (chain) {
      const left = Number(chain[1]);
      res.writeHead(302, { location: left > 1 ? `/chain/${left - 1}` : '/page' }).end();
      return;
    }
    switch (url.pathname) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
        return;
      case '/plain':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        return;
      case '/relative-redirect':
        res.writeHead(301, { location: '/page' }).end();
        return;
      case '/redirect-private':
        res.writeHead(302, { location: 'http://10.0.0.1/admin' }).end();
        return;
      case '/redirect-metadata':
        res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/redirect-v6':
        res.writeHead(302, { location: `http://[::1]:${port}/page` }).end();
        return;
      case '/redirect-mapped':
        res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${port}/page` }).end();
        return;
      case '/redirect-file':
        res.writeHead(302, { location: 'file:///etc/passwd' }).end();
        return;
      case '/gzip':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(PAGE));
        return;
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.on('close', () => {
          bigClosedEarly = !res.writableFinished;
        });
        let sent = 0;
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = (): void => {
          while (sent < 5_000_000) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', pump);
              return;
            }
          }
          res.end();
        };
        pump();
        return;
      }
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        return; // never ends
      case '/hang':
        return; // never answers
      case '/binary':
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 3]));
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
        return;
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

const allowLoopback = { allowPrivate: ['127.0.0.1'] };

interface FetchResult {
  url: string;
  status: number;
  content_type: string | null;
  title: string | null;
  text: string;
  truncated: boolean;
  redirected_from?: string;
}

async function fetchWith(url: string, context: Record<string, unknown> = allowLoopback, signal?: AbortSignal): Promise<FetchResult> {
  const args = await fetchUrl.validateArgs({ url });
  assert.ok(args.ok);
  return (await fetchUrl.invoke(args.value, toolContext(context, signal))).raw as FetchResult;
}

describe('fetch_url', () => {
  test('refuses loopback without the test flag, by IP literal and after DNS resolution', async () => {
    await assert.rejects(fetchWith(`${origin}/page`, {}), /refused: 127\.0\.0\.1 is not a public address \(loopback\)/);
    await assert.rejects(fetchWith(`http://localhost:${port}/page`, {}), /refused: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/);
    await assert.rejects(fetchWith(`http://[::1]:${port}/page`, {}), /refused: ::1 is not a public address/);
    await assert.rejects(fetchWith(`http://0x7f.0.0.1:${port}/page`, {}), /refused: 127\.0\.0\.1/);
    await assert.rejects(fetchWith(`http://2130706433:${port}/page`, {}), /refused: 127\.0\.0\.1/);
    await assert.rejects(fetchWith('http://169.254.169.254/latest/meta-data/', {}), /link-local/);
    await assert.rejects(fetchWith('http://[fd00::1]/', {}), /unique-local/);
  });

  test('fetches an allowed loopback page as readable text', async () => {
    const result = await fetchWith(`${origin}/page`);
    assert.equal(result.status, 200);
    assert.equal(result.content_type, 'text/html');
    assert.equal(result.title, 'Cold brew & you');
    assert.equal(result.text, 'Cold brew\n\nSteep for 12–18 hours.');
    assert.equal(result.truncated, false);
  });

  test('decodes gzip bodies and declared charsets', async () => {
    assert.equal((await fetchWith(`${origin}/gzip`)).text, 'Cold brew\n\nSteep for 12–18 hours.');
    assert.equal((await fetchWith(`${origin}/plain`)).text, 'café');
  });

  test('follows redirects, re-checking every hop', async () => {
    const result = await fetchWith(`${origin}/relative-redirect`);
    assert.equal(result.url, `${origin}/page`);
    assert.equal(result.redirected_from, `${origin}/relative-redirect`);
    await assert.rejects(fetchWith(`${origin}/redirect-private`), /refused: 10\.0\.0\.1 is not a public address \(private\)/);
    await assert.rejects(fetchWith(`${origin}/redirect-metadata`), /refused: 169\.254\.169\.254/);
    await assert.rejects(fetchWith(`${origin}/redirect-v6`), /refused: ::1 is not a public address/);
    await assert.rejects(fetchWith(`${origin}/redirect-mapped`), /refused: ::ffff:7f00:1 is not a public address \(IPv4 loopback\)/);
    await assert.rejects(fetchWith(`${origin}/redirect-file`), /only http and https URLs are allowed, not file/);
  });

  test('follows at most 5 redirects', async () => {
    assert.equal((await fetchWith(`${origin}/chain/5`)).url, `${origin}/page`);
    await assert.rejects(fetchWith(`${origin}/chain/6`), /too many redirects \(more than 5\)/);
  });

  test('cuts an oversize body and stops the download', async () => {
    // Each download must end with the server seeing the connection closed before it finished
    // sending (polled: the close reaches the server a little after the client returns).
    const closedEarly = async (): Promise<boolean> => {
      const deadline = Date.now() + 5000;
      while (bigClosedEarly === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      const seen = bigClosedEarly;
      bigClosedEarly = undefined;
      return seen === true;
    };
    bigClosedEarly = undefined;
    const result = await fetchWith(`${origin}/big`);
    assert.equal(result.truncated, true);
    assert.ok(result.text.startsWith('aaaa'));
    assert.equal(await closedEarly(), true, 'fetch_url: the server saw the connection closed before it finished sending');
    const raw = await safeFetch(`${origin}/big`, { allowPrivate: ['127.0.0.1'], maxBytes: 100_000 });
    assert.equal(raw.body.length, 100_000);
    assert.equal(raw.truncated, true);
    assert.equal(await closedEarly(), true, 'safeFetch: the server saw the connection closed before it finished sending');
  });

  test('gives up at the time limit, headers or body', async () => {
    const started = Date.now();
    await assert.rejects(fetchWith(`${origin}/hang`, { ...allowLoopback, fetchTimeoutMs: 200 }), /timed out after 200 ms/);
    await assert.rejects(fetchWith(`${origin}/slow`, { ...allowLoopback, fetchTimeoutMs: 200 }), /timed out after 200 ms/);
    assert.ok(Date.now() - started < 3_000);
  });

  test('stops when the run is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('run cancelled')), 100);
    await assert.rejects(fetchWith(`${origin}/hang`, allowLoopback, controller.signal), /run cancelled/);
  });

  test('refuses non-http schemes, credentials and malformed URLs', async () => {
    await assert.rejects(fetchWith('file:///etc/passwd'), /only http and https URLs are allowed, not file/);
    await assert.rejects(fetchWith('ftp://example.com/x'), /not ftp/);
    await assert.rejects(fetchWith('javascript:alert(1)'), /not javascript/);
    await assert.rejects(fetchWith('data:text/html,hi'), /not data/);
    await assert.rejects(fetchWith(`http://user:pass@127.0.0.1:${port}/page`), /credentials/);
    await assert.rejects(fetchWith('not a url'), /not a valid absolute URL/);
  });

  test('refuses binary content and reports HTTP errors', async () => {
    await assert.rejects(fetchWith(`${origin}/binary`), /application\/octet-stream, not a text or HTML page/);
    await assert.rejects(fetchWith(`${origin}/missing`), /HTTP 404/);
  });
});
