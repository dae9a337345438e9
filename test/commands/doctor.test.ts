import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_AZURE_OPENAI_API_VERSION } from '../../lib/providers/openai/azure-api-version.js';
import { ensureCliBuilt } from '../support/cli-build.js';
import { jsonResponse, startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { checkOf, closedPort, doctor, modelList, scratchDir, SECRET, type DoctorDocument } from './doctor-helpers.js';
import { agentlib } from './run-helpers.js';

/** Azure OpenAI from the environment alone (no agent file), its endpoint at `url`. */
function azureEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { AZURE_OPENAI_API_KEY: SECRET, AZURE_OPENAI_ENDPOINT: url, CI: 'true', ...extra };
}

/** OpenAI pointed at `url`, nothing else configured (Ollama's default host is an optional probe). */
function openaiEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return { OPENAI_API_KEY: SECRET, OPENAI_BASE_URL: `${url}/v1`, CI: 'true', ...extra };
}

describe('agentlib doctor (in-process, replay server)', () => {
  let server: ReplayServer;
  let scratch: ReturnType<typeof scratchDir>;
  before(async () => {
    server = await startReplayServer();
    scratch = scratchDir();
  });
  after(async () => {
    await server.close();
    scratch.cleanup();
  });

  test('all good: the key is accepted, exit 0, one line per check and a summary', async () => {
    server.enqueue(modelList(3));
    const start = server.requests.length;
    const run = await doctor([], openaiEnv(server.url), scratch.dir);
    assert.equal(run.exitCode, 0, run.stdout);
    assert.match(run.stdout, /^✓ Node\.js: v\d+\.\d+\.\d+ \(engines: >=20\.19\)$/m);
    assert.match(run.stdout, /^✓ Provider openai: HTTP 200 in \d+ ms, 3 models \(http:\/\/127\.0\.0\.1:\d+\/v1\/models\)$/m);
    assert.match(run.stdout, /^✓ Provider keys: set: OPENAI_API_KEY; not set: /m);
    assert.match(run.stdout, /^- Agent config: no agent\.yaml in /m);
    assert.match(run.stdout, /\d+ ok, \d+ warnings?, 0 failed, \d+ skipped: no problems with required checks\n$/);
    const request = server.requests[start];
    assert.equal(request?.method, 'GET');
    assert.equal(request?.path, '/v1/models');
    assert.equal(request?.headers.authorization, `Bearer ${SECRET}`);
    assert.ok(!run.stdout.includes(SECRET));
    assert.equal(run.stderr, '');
  });

  test('a 401: exit 3 and the hint names the key variable', async () => {
    server.enqueue(jsonResponse({ error: { message: `Incorrect API key provided: ${SECRET}`, code: 'invalid_api_key' } }, 401));
    const run = await doctor([], openaiEnv(server.url), scratch.dir);
    assert.equal(run.exitCode, 3);
    assert.match(run.stdout, /^x Provider openai: HTTP 401 in \d+ ms/m);
    assert.match(run.stdout, /hint: key rejected: check OPENAI_API_KEY/);
    assert.match(run.stdout, /1 required check failed/);
    assert.ok(!run.stdout.includes(SECRET), 'the body (which echoes the key) is not shown');
  });

  test('an unreachable host fails fast with "cannot reach"', async () => {
    const port = await closedPort();
    const run = await doctor(['--timeout', '10000'], openaiEnv(`http://127.0.0.1:${port}`), scratch.dir);
    assert.equal(run.exitCode, 3);
    assert.match(run.stdout, new RegExp(`x Provider openai: cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.match(run.stdout, /hint: cannot reach 127\.0\.0\.1:\d+: check the network, a proxy or firewall, and OPENAI_BASE_URL/);
    assert.ok(run.ms < 5000, `took ${run.ms} ms`);
  });

  test('the closed port 9 (a port fetch refuses) is unreachable too', async () => {
    const run = await doctor(['--json'], openaiEnv('http://127.0.0.1:9'), scratch.dir);
    assert.equal(run.exitCode, 3);
    const doc = JSON.parse(run.stdout) as DoctorDocument;
    const check = checkOf(doc, 'provider:openai');
    assert.equal(check.status, 'fail');
    assert.match(check.detail, /^cannot reach 127\.0\.0\.1:9 /);
    assert.equal(check.data?.reason, 'unreachable');
  });

  test('a hanging server: bounded by --timeout', async () => {
    server.enqueue({ hang: true });
    const run = await doctor(['--timeout', '300'], openaiEnv(server.url), scratch.dir);
    assert.equal(run.exitCode, 3);
    assert.match(run.stdout, /x Provider openai: cannot reach 127\.0\.0\.1:\d+ \(no answer within 300 ms\)/);
    assert.ok(run.ms < 3000, `took ${run.ms} ms`);
  });

  test('--json: one versioned document with checks and ok; no secret anywhere', async () => {
    server.enqueue(modelList(2));
    const env = openaiEnv(server.url, { ANTHROPIC_API_KEY: `${SECRET}-anthropic`, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', GITHUB_TOKEN: 'ghp_doctorTestToken123', REDIS_URL: `redis://user:${SECRET}@127.0.0.1:9` });
    const run = await doctor(['--json', '--timeout', '2000'], env, scratch.dir);
    const doc = JSON.parse(run.stdout) as DoctorDocument;
    assert.equal(doc.version, 1);
    assert.equal(doc.ok, false, 'anthropic is unreachable');
    assert.equal(doc.exitCode, 3);
    assert.equal(run.exitCode, 3);
    assert.ok(Array.isArray(doc.checks));
    for (const check of doc.checks) {
      assert.equal(typeof check.id, 'string');
      assert.equal(typeof check.title, 'string');
      assert.ok(['ok', 'warn', 'fail', 'skip'].includes(check.status), check.status);
      assert.equal(typeof check.detail, 'string');
      assert.equal(typeof check.required, 'boolean');
    }
    assert.deepEqual(
      doc.checks.map((c) => c.id).filter((id) => !id.startsWith('provider:ollama')),
      ['node', 'terminal', 'config', 'tools', 'provider-keys', 'provider:openai', 'provider:anthropic', 'sqlite', 'backend:REDIS_URL'],
    );
    const openai = checkOf(doc, 'provider:openai');
    assert.equal(openai.status, 'ok');
    assert.equal(openai.data?.httpStatus, 200);
    assert.equal(openai.data?.models, 2);
    assert.equal(typeof openai.data?.latencyMs, 'number');
    assert.equal(checkOf(doc, 'provider:anthropic').status, 'fail');
    assert.deepEqual(checkOf(doc, 'provider-keys').data?.set, ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY']);
    const redis = checkOf(doc, 'backend:REDIS_URL');
    assert.equal(redis.status, 'warn', 'REDIS_URL is not agentlib-specific: optional');
    assert.equal(redis.data?.address, 'redis://127.0.0.1:9');
    assert.equal(doc.summary.fail, 1);
    const all = run.stdout + run.stderr;
    for (const secret of [SECRET, 'ghp_doctorTestToken123', 'user:']) assert.ok(!all.includes(secret), `${secret} leaked`);
    assert.equal(run.stderr, '');
  });

  test('Azure from AZURE_OPENAI_API_KEY + AZURE_OPENAI_ENDPOINT alone: the model list with api-version and api-key, exit 0', async () => {
    server.enqueue(modelList(4));
    const start = server.requests.length;
    const run = await doctor(['--json'], azureEnv(server.url, { AZURE_OPENAI_API_VERSION: '2024-12-01-preview' }), scratch.dir);
    assert.equal(run.exitCode, 0, run.stdout);
    const doc = JSON.parse(run.stdout) as DoctorDocument;
    const azure = checkOf(doc, 'provider:azure');
    assert.equal(azure.status, 'ok');
    assert.equal(azure.required, true);
    assert.equal(azure.data?.models, 4);
    assert.equal(azure.data?.apiVersion, '2024-12-01-preview');
    assert.deepEqual(checkOf(doc, 'provider-keys').data?.set, ['AZURE_OPENAI_API_KEY']);
    const request = server.requests[start];
    assert.equal(request?.method, 'GET');
    assert.equal(request?.path, '/openai/models?api-version=2024-12-01-preview');
    assert.equal(request?.headers['api-key'], SECRET);
    assert.equal(request?.headers.authorization, undefined);
    assert.ok(!run.stdout.includes(SECRET));

    // Text report, the adapter's default version when none is set.
    server.enqueue(modelList(1));
    const text = await doctor([], azureEnv(`${server.url}/`), scratch.dir);
    assert.equal(text.exitCode, 0, text.stdout);
    assert.match(text.stdout, /^✓ Provider azure: HTTP 200 in \d+ ms, 1 model \(http:\/\/127\.0\.0\.1:\d+\/openai\/models\)$/m);
    assert.equal(server.requests[start + 1]?.path, `/openai/models?api-version=${DEFAULT_AZURE_OPENAI_API_VERSION}`);
  });

  test('Azure from the environment, a 401: exit 3 and the hint names AZURE_OPENAI_API_KEY', async () => {
    server.enqueue(jsonResponse({ error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' } }, 401));
    const run = await doctor([], azureEnv(server.url), scratch.dir);
    assert.equal(run.exitCode, 3);
    assert.match(run.stdout, /^x Provider azure: HTTP 401 in \d+ ms/m);
    assert.match(run.stdout, /hint: key rejected: check AZURE_OPENAI_API_KEY/);
    assert.ok(!run.stdout.includes(SECRET));
  });

  test('Azure from the environment, an unreachable endpoint: "cannot reach", exit 3', async () => {
    const port = await closedPort();
    const run = await doctor(['--timeout', '10000'], azureEnv(`http://127.0.0.1:${port}`), scratch.dir);
    assert.equal(run.exitCode, 3);
    assert.match(run.stdout, new RegExp(`x Provider azure: cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
    assert.match(run.stdout, /hint: cannot reach 127\.0\.0\.1:\d+: check the network, a proxy or firewall, and AZURE_OPENAI_ENDPOINT/);
    assert.ok(run.ms < 5000, `took ${run.ms} ms`);
  });

  test('a malformed agent YAML: the config check fails with file:line:col, exit 2', async () => {
    const dir = scratchDir({ 'agent.yaml': 'name: broken\nprovider: openai\nmodel: [unclosed\n', 'other.yaml': 'provider: openai\nmax_iteration: 3\n' });
    try {
      const run = await doctor(['--offline'], { OPENAI_API_KEY: SECRET }, dir.dir);
      assert.equal(run.exitCode, 2);
      assert.match(run.stdout, /^x Agent config: agent\.yaml:\d+:\d+: invalid YAML/m);
      const other = await doctor(['--offline', '--json', '--agent', 'other.yaml'], { OPENAI_API_KEY: SECRET }, dir.dir);
      assert.equal(other.exitCode, 2);
      const config = checkOf(JSON.parse(other.stdout) as DoctorDocument, 'config');
      assert.equal(config.status, 'fail');
      assert.match(config.detail, /^other\.yaml:2:1: unknown key "max_iteration".*did you mean "max_iterations"\?/);
    } finally {
      dir.cleanup();
    }
  });

  test('a valid agent file: its provider is probed, required, even without a key in the environment', async () => {
    const dir = scratchDir({ 'agent.yaml': `provider:\n  type: openai-compatible\n  name: local\n  base_url: ${server.url}/v1\n  model: llama3\n` });
    try {
      server.enqueue(modelList(1));
      const run = await doctor(['--json'], { OLLAMA_HOST: 'http://127.0.0.1:9' }, dir.dir);
      const doc = JSON.parse(run.stdout) as DoctorDocument;
      assert.match(checkOf(doc, 'config').detail, /^agent\.yaml: valid \(provider local \(llama3\), 0 tool sources\)$/);
      assert.equal(checkOf(doc, 'provider:local').status, 'ok');
      assert.equal(checkOf(doc, 'provider:local').required, true);
      // OLLAMA_HOST set means Ollama is configured: unreachable is a required failure.
      assert.equal(checkOf(doc, 'provider:ollama').status, 'fail');
      assert.equal(run.exitCode, 3);
    } finally {
      dir.cleanup();
    }
  });

  test('a provider named in the agent file without its key: exit 2 (a configuration error)', async () => {
    const dir = scratchDir({ 'agent.yaml': 'provider: anthropic\n' });
    try {
      const run = await doctor(['--offline'], {}, dir.dir);
      assert.equal(run.exitCode, 2);
      assert.match(run.stdout, /x Provider anthropic: no API key: ANTHROPIC_API_KEY is not set/);
      assert.match(run.stdout, /hint: set ANTHROPIC_API_KEY/);
    } finally {
      dir.cleanup();
    }
  });

  test('--agent pointing at a missing file fails (exit 2)', async () => {
    const run = await doctor(['--offline', '--agent', 'nope.yaml'], {}, scratch.dir);
    assert.equal(run.exitCode, 2);
    assert.match(run.stdout, /x Agent config: nope\.yaml: file not found/);
  });

  test('--offline skips every network probe', async () => {
    const start = server.requests.length;
    const run = await doctor(['--offline', '--json'], openaiEnv(server.url, { AGENTLIB_REDIS_URL: 'redis://127.0.0.1:9' }), scratch.dir);
    assert.equal(run.exitCode, 0, run.stdout);
    assert.equal(server.requests.length, start, 'no request made');
    const doc = JSON.parse(run.stdout) as DoctorDocument;
    for (const id of ['provider:openai', 'provider:ollama', 'backend:AGENTLIB_REDIS_URL']) {
      assert.equal(checkOf(doc, id).status, 'skip', id);
      assert.match(checkOf(doc, id).detail, /not probed \(--offline\)/);
    }
  });

  test('no key at all: a warning, not a failure', async () => {
    const run = await doctor(['--offline'], {}, scratch.dir);
    assert.equal(run.exitCode, 0);
    assert.match(run.stdout, /^! Provider keys: no provider key set$/m);
    assert.match(run.stdout, /hint: set one of OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY/);
  });

  test('a bad --timeout is a usage error', async () => {
    const run = await doctor(['--timeout', '-5'], {}, scratch.dir);
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /--timeout must be a positive number/);
  });

  test('colour only when enabled', async () => {
    const plain = await doctor(['--offline'], {}, scratch.dir);
    assert.ok(!plain.stdout.includes('\u001b['));
    const colored = await doctor(['--offline'], { NO_COLOR: '', FORCE_COLOR: '1' }, scratch.dir);
    assert.ok(colored.stdout.includes('\u001b[32m✓'), colored.stdout);
  });
});

describe('agentlib doctor (built binary)', () => {
  let server: ReplayServer;
  let scratch: ReturnType<typeof scratchDir>;
  before(async () => {
    ensureCliBuilt();
    server = await startReplayServer();
    scratch = scratchDir();
  });
  after(async () => {
    await server.close();
    scratch.cleanup();
  });

  test('all good: exit 0', async () => {
    server.enqueue(modelList(1));
    const run = await agentlib(['doctor'], { cwd: scratch.dir, env: { ...openaiEnv(server.url), NO_COLOR: '1' } });
    assert.equal(run.exitCode, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /✓ Provider openai: HTTP 200/);
    assert.ok(!run.stdout.includes(SECRET));
  });

  test('a 401 with --json: exit 3, the hint, no secret', async () => {
    server.enqueue(jsonResponse({ error: { message: 'bad key' } }, 401));
    const run = await agentlib(['doctor', '--json'], { cwd: scratch.dir, env: { ...openaiEnv(server.url), NO_COLOR: '1' } });
    assert.equal(run.exitCode, 3, run.stderr);
    const doc = JSON.parse(run.stdout) as DoctorDocument;
    assert.equal(doc.ok, false);
    assert.equal(checkOf(doc, 'provider:openai').hint, 'key rejected: check OPENAI_API_KEY');
    assert.ok(!(run.stdout + run.stderr).includes(SECRET));
  });

  test('a hanging server: the process ends within --timeout', async () => {
    server.enqueue({ hang: true });
    const started = performance.now();
    const run = await agentlib(['doctor', '--timeout', '500'], { cwd: scratch.dir, env: { ...openaiEnv(server.url), NO_COLOR: '1' } });
    assert.equal(run.exitCode, 3);
    assert.match(run.stdout, /no answer within 500 ms/);
    assert.ok(performance.now() - started < 8000);
  });
});
