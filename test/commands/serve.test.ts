import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fixture, jsonResponse, recordedResponses, sseResponse } from '../support/replay-server.js';
import { gate } from '../support/gate.js';
import { readSse, until } from '../lib/serve/helpers.js';
import { agentlib, ANSWER, CALCULATOR_RECORDING, cliEnv, cliSuite, enqueueCalculator, QUESTION } from './run-helpers.js';
import { invoke, startServe, stream } from './serve-helpers.js';

/** The server answers /health with 401 without the token and 200 with it; then it is stopped (exit 0). */
async function assertTokenRequired(serve: Awaited<ReturnType<typeof startServe>>, token: string): Promise<void> {
  try {
    assert.equal((await fetch(`${serve.url}/health`)).status, 401);
    assert.equal((await fetch(`${serve.url}/health`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
  } finally {
    serve.child.kill('SIGTERM');
    assert.equal((await serve.child).exitCode, 0);
  }
}

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

      // The second provider reply stops after its first piece until the test lets it go: a run is in
      // flight while SIGTERM arrives and while the late request is refused.
      const [toolCall, answer] = recordedResponses(CALCULATOR_RECORDING).map((r) => sseResponse(r.body ?? '', 512));
      const answerHeld = gate();
      server.enqueue(toolCall as ReturnType<typeof sseResponse>, { ...(answer as ReturnType<typeof sseResponse>), holdAfter: { chunks: 1, until: answerHeld.opened } });
      const before = server.requests.length;
      const inflight = stream(serve.url, QUESTION);
      while (server.requests.length < before + 2) await new Promise((resolve) => setTimeout(resolve, 10));
      serve.child.kill('SIGTERM');
      // The server says it is shutting down just before it starts draining (a loaded machine may take a while).
      await until(() => /SIGTERM: shutting down/.test(serve.stderr()), 5000, 'the shutdown notice');
      const refused = await invoke(serve.url, 'late');
      assert.equal(refused.status, 503);
      answerHeld.open();
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

  test('auth tokens: whitespace is refused at start-up (exit 2); --auth-token-file protects the routes; not with --auth-token', async () => {
    const { server, project } = suite;
    const token = 'a-long-enough-file-token';
    for (const args of [['--auth-token', 'a token with spaces in it'], ['--auth-token', '                    ']]) {
      const run = await agentlib(['serve', project.agent, ...args], { cwd: project.dir, env: cliEnv(undefined) });
      assert.equal(run.exitCode, 2, run.stderr);
      assert.match(run.stderr, /auth token from --auth-token cannot be used: .*whitespace/);
    }
    const spacedEnv = await agentlib(['serve', project.agent], { cwd: project.dir, env: cliEnv(undefined, { AGENTLIB_AUTH_TOKEN: ` ${token}` }) });
    assert.equal(spacedEnv.exitCode, 2, spacedEnv.stderr);
    assert.match(spacedEnv.stderr, /AGENTLIB_AUTH_TOKEN cannot be used: .*whitespace/);
    writeFileSync(join(project.dir, 'token.txt'), `${token}\n`);
    const both = await agentlib(['serve', project.agent, '--auth-token', token, '--auth-token-file', 'token.txt'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(both.exitCode, 2, both.stderr);
    assert.match(both.stderr, /not both/);
    await assertTokenRequired(await startServe([project.agent, '--quiet', '--auth-token-file', 'token.txt'], { cwd: project.dir, env: cliEnv(server) }), token);
  });

  test('AGENTLIB_AUTH_TOKEN protects the routes', async () => {
    const { server, project } = suite;
    const token = 'a-long-enough-test-token';
    await assertTokenRequired(await startServe([project.agent, '--quiet'], { cwd: project.dir, env: cliEnv(server, { AGENTLIB_AUTH_TOKEN: token }) }), token);
  });
});
