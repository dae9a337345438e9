import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fixture, jsonResponse, recordedResponses, sseResponse } from '../support/replay-server.js';
import { readSse, until } from '../lib/serve/helpers.js';
import { agentlib, ANSWER, CALCULATOR_RECORDING, cliEnv, cliSuite, enqueueCalculator, QUESTION } from './run-helpers.js';
import { invoke, startServe, stream } from './serve-helpers.js';

describe('agentlib serve (built binary, replay server)', () => {
  const suite = cliSuite();

  test('prints the URL and routes, answers /invoke and /health, logs requests on stderr, drains on SIGTERM', async () => {
    const { server, project } = suite;
    const serve = await startServe([project.agent], { cwd: project.dir, env: cliEnv(server) });
    try {
      for (const route of ['/invoke', '/stream', '/v1/chat/completions', '/health', '/schema', '/openapi.json', '/playground']) assert.ok(serve.stdout().includes(`${serve.url}${route}`), `banner lists ${route}`);
      assert.match(serve.stdout(), /Serving agent "calculator" \(openai gpt-4o-mini\)/);
      const health = (await (await fetch(`${serve.url}/health`)).json()) as { agent: string; tools: string[] };
      assert.equal(health.agent, 'calculator');
      assert.ok(health.tools.includes('multiply'));

      // /invoke makes non-streaming provider calls: a recorded non-stream reply.
      server.enqueue(jsonResponse(fixture('openai/chat.text.nonstream.vercel.json').toString('utf8')));
      const res = await invoke(serve.url, 'Invent a holiday');
      assert.equal(res.status, 200, `${await res.clone().text()}\n${serve.stderr()}`);
      const body = (await res.json()) as { content: string; usage: { total_tokens: number }; status: string };
      assert.match(body.content, /^\*\*Holiday Name:\*\* Galaxy Day/);
      assert.equal(body.usage.total_tokens, 379);
      // Access-log lines go out at the end of the event-loop turn of their request.
      await until(() => /POST \/invoke 200 \d+ms/.test(serve.stderr()), 2000, 'the access-log line');

      // /stream makes streaming calls: the calculator's recorded tool round trip.
      enqueueCalculator(server);
      const events = await readSse(await stream(serve.url, QUESTION));
      assert.ok(events.some((e) => e.event === 'tool-end'));
      const end = events.at(-1);
      assert.equal(end?.event, 'run-end');
      assert.equal((end?.data as { content: string }).content, ANSWER);
      assert.deepEqual((end?.data as { tool_calls: unknown }).tool_calls, [{ tool_name: 'multiply', parameters: { a: 1231, b: 2331 } }]);

      // A slow second provider reply keeps a run in flight while SIGTERM arrives.
      const [toolCall, answer] = recordedResponses(CALCULATOR_RECORDING).map((r) => sseResponse(r.body ?? '', 512));
      server.enqueue(toolCall as ReturnType<typeof sseResponse>, { ...(answer as ReturnType<typeof sseResponse>), chunkDelayMs: 60 });
      const before = server.requests.length;
      const inflight = stream(serve.url, QUESTION);
      while (server.requests.length < before + 2) await new Promise((resolve) => setTimeout(resolve, 10));
      serve.child.kill('SIGTERM');
      // The server says it is shutting down just before it starts draining (a loaded machine may take a while).
      await until(() => /SIGTERM: shutting down/.test(serve.stderr()), 5000, 'the shutdown notice');
      const refused = await invoke(serve.url, 'late');
      assert.equal(refused.status, 503);
      const finished = await readSse(await inflight);
      assert.equal(finished.at(-1)?.event, 'run-end');
      assert.equal((finished.at(-1)?.data as { content: string }).content, ANSWER);
      const result = await serve.child;
      assert.equal(result.exitCode, 0, result.stderr);
      assert.match(result.stderr, /SIGTERM: shutting down/);
      assert.match(result.stderr, /1 run\(s\) finished, 0 aborted/);
    } finally {
      serve.child.kill('SIGKILL');
    }
  });

  test('a provider failure over the binary is a 502 JSON error', async () => {
    const { server, project } = suite;
    const serve = await startServe([project.agent, '--quiet'], { cwd: project.dir, env: cliEnv(server) });
    try {
      server.enqueue({ status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { message: 'bad request upstream', type: 'invalid_request_error' } }) });
      const res = await invoke(serve.url, QUESTION);
      assert.equal(res.status, 502);
      const body = (await res.json()) as { error: { type: string; message: string } };
      assert.equal(body.error.type, 'provider_error');
      assert.match(body.error.message, /openai/);
      assert.doesNotMatch(serve.stderr(), /POST \/invoke 502/, '--quiet: no access log');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.child;
    }
  });

  test('a non-loopback --host without a token is a usage error (exit 2)', async () => {
    const { project } = suite;
    const run = await agentlib(['serve', project.agent, '--host', '0.0.0.0'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /--auth-token/);
    const badCors = await agentlib(['serve', project.agent, '--cors', 'http://x.example/path'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(badCors.exitCode, 2);
    assert.match(badCors.stderr, /--cors expects an origin/);
  });

  test('AGENTLIB_AUTH_TOKEN protects the routes', async () => {
    const { server, project } = suite;
    const token = 'a-long-enough-test-token';
    const serve = await startServe([project.agent, '--quiet'], { cwd: project.dir, env: cliEnv(server, { AGENTLIB_AUTH_TOKEN: token }) });
    try {
      assert.equal((await fetch(`${serve.url}/health`)).status, 401);
      assert.equal((await fetch(`${serve.url}/health`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    } finally {
      serve.child.kill('SIGTERM');
      assert.equal((await serve.child).exitCode, 0);
    }
  });
});
