// Issue 13 item 7: a provider (or a proxy in front of it) whose error body echoes the API key. The
// key must reach none of the sinks: the HTTP 502 body, the SSE error frame, the server log, the
// cassette, the trace, or the CLI's stderr (even with --debug, which prints the cause chain). One
// loopback server answers all four adapters with their own error format, each echoing the
// credential it received (Authorization, x-api-key, x-goog-api-key or ?key=).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt } from '../support/cli-build.js';
import { readSse } from '../lib/serve/helpers.js';
import { agentlib } from './run-helpers.js';
import { invoke, startServe, stream } from './serve-helpers.js';

/** The credential a request carried, however the SDK sent it. */
function credentialOf(req: IncomingMessage): string {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') return auth.replace(/^Bearer\s+/i, '');
  for (const name of ['x-api-key', 'x-goog-api-key']) {
    const value = req.headers[name];
    if (typeof value === 'string') return value;
  }
  return new URL(req.url ?? '/', 'http://x').searchParams.get('key') ?? '(none)';
}

/** An error body in the provider's own format whose message echoes `key` (no credential shape: only the configured value gives it away). */
function echoBody(path: string, key: string): { status: number; body: unknown } {
  const message = `The credential ${key} is not valid here (echoed by a proxy)`;
  if (path.startsWith('/v1/chat/completions')) return { status: 401, body: { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } } };
  if (path.startsWith('/v1/messages')) return { status: 401, body: { type: 'error', error: { type: 'authentication_error', message } } };
  if (path.startsWith('/api/chat')) return { status: 401, body: { error: message } };
  return { status: 401, body: { error: { code: 401, message, status: 'UNAUTHENTICATED' } } };
}

const ADAPTERS = [
  { type: 'openai', model: 'gpt-4o-mini', env: 'LLM_ACCESS_OPENAI', base: (url: string) => `${url}/v1`, key: 'ok0penai-f00d-cafe-0123456789' },
  { type: 'anthropic', model: 'claude-haiku-4-5', env: 'LLM_ACCESS_ANTHROPIC', base: (url: string) => url, key: 'okanthr0pic-beef-0123456789' },
  { type: 'gemini', model: 'gemini-2.5-flash', env: 'LLM_ACCESS_GEMINI', base: (url: string) => url, key: 'okgem1ni-d00d-0123456789ab' },
  { type: 'ollama', model: 'llama3.2', env: 'LLM_ACCESS_OLLAMA', base: (url: string) => url, key: 'ok0llama-face-0123456789ab' },
] as const;

describe('a provider error that echoes the API key reaches no sink (built binary, loopback provider)', () => {
  let server: Server;
  let url = '';
  let dir = '';
  before(async () => {
    ensureCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'agentlib-key-echo-'));
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const { status, body } = echoBody(req.url ?? '/', credentialOf(req));
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const adapter of ADAPTERS) {
    test(`${adapter.type}: not in the 502 body, the SSE error frame, the server log, the cassette, the trace or stderr`, async () => {
      const agent = join(dir, `${adapter.type}.yaml`);
      writeFileSync(agent, `name: echo\nprovider:\n  type: ${adapter.type}\n  base_url: ${adapter.base(url)}\n  api_key_env: ${adapter.env}\nmodel: ${adapter.model}\nsystem_prompt: Answer briefly.\n`);
      // The key under a name that does not look secret, so the cassette's own scrubbing of secret environment variables cannot be what hides it.
      const env: Record<string, string> = { CI: 'true', NO_COLOR: '1', [adapter.env]: adapter.key };
      const leaks = (where: string, text: string): void => {
        assert.ok(!text.includes(adapter.key), `${where} leaks the key:\n${text}`);
      };

      const cassette = join(dir, `${adapter.type}.cassette.jsonl`);
      const trace = join(dir, `${adapter.type}.trace.jsonl`);
      const run = await agentlib(['run', agent, 'hello', '--record', cassette, '--trace', trace, '--debug'], { cwd: dir, env });
      assert.equal(run.exitCode, 3, run.stderr);
      assert.match(run.stderr, /ProviderError: .*\[REDACTED\]/, 'the error is reported, the key replaced');
      leaks('stderr', run.stderr);
      leaks('stdout', run.stdout);
      assert.match(readFileSync(cassette, 'utf8'), /"error":\{"name":"ProviderError"/);
      leaks('the cassette', readFileSync(cassette, 'utf8'));
      assert.match(readFileSync(trace, 'utf8'), /\[REDACTED\]/);
      leaks('the trace', readFileSync(trace, 'utf8'));

      const serve = await startServe([agent], { cwd: dir, env });
      try {
        const res = await invoke(serve.url, 'hello');
        assert.equal(res.status, 502);
        const body = await res.text();
        assert.match(body, /provider_error.*\[REDACTED\]/);
        leaks('the 502 body', body);
        const frames = await readSse(await stream(serve.url, 'hello'));
        const last = frames.at(-1);
        assert.equal(last?.event, 'error');
        leaks('the SSE error frame', JSON.stringify(frames));
      } finally {
        serve.child.kill('SIGTERM');
        await serve.child;
      }
      assert.match(serve.stderr(), /failed: ProviderError/, 'the server logged the failure');
      leaks('the server log', serve.stderr());
    });
  }
});
