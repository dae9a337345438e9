import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { jsonResponse, recordedResponses, startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { agentlib, ANSWER, cliEnv, enqueueCalculator, QUESTION, scratchProject } from './run-helpers.js';

describe('agentlib run (built binary, replay server)', () => {
  let server: ReplayServer;
  let project: ReturnType<typeof scratchProject>;
  before(async () => {
    ensureCliBuilt();
    server = await startReplayServer();
    project = scratchProject();
  });
  after(async () => {
    await server.close();
    project.cleanup();
  });

  test('text: the answer on stdout, tool lines and a summary on stderr, a trace saved', async () => {
    enqueueCalculator(server);
    const run = await agentlib(['run', project.agent, QUESTION], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, ANSWER);
    assert.match(run.stderr, /✓ multiply \{"a":1231,"b":2331\}/);
    const trace = /trace (\S+\.jsonl)/.exec(run.stderr)?.[1];
    assert.ok(trace !== undefined && trace.startsWith('.agentlib/traces/'), run.stderr);
    const lines = readFileSync(join(project.dir, trace), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    assert.equal(lines[0]?.type, 'trace');
    assert.ok(lines.some((step) => step.type === 'tool_execution'));
  });

  test('json: one versioned document with the result, usage and trace path', async () => {
    enqueueCalculator(server);
    const traceFile = join(project.dir, 'out', 'trace.jsonl');
    const run = await agentlib(['run', project.agent, QUESTION, '--output-format', 'json', '--trace', traceFile], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 0, run.stderr);
    const doc = JSON.parse(run.stdout) as Record<string, unknown> & { usage: { totalTokens: number; llmCalls: number }; toolCalls: { toolName: string; parameters: unknown }[] };
    assert.equal(doc.version, 1);
    assert.equal(doc.status, 'completed');
    assert.equal(doc.content, ANSWER);
    assert.deepEqual(doc.toolCalls.map((c) => [c.toolName, c.parameters]), [['multiply', { a: 1231, b: 2331 }]]);
    assert.equal(doc.usage.totalTokens, 54 + 20 + 87 + 26);
    assert.equal(doc.usage.llmCalls, 2);
    assert.equal(doc.model, 'gpt-4o-mini');
    assert.equal(doc.provider, 'openai');
    assert.ok(existsSync(traceFile));
    assert.equal(run.stderr, '', 'nothing but data in json mode');
  });

  test('stream-json: one AgentEvent per line, run-start first and run-end last', async () => {
    enqueueCalculator(server);
    const run = await agentlib(['run', project.agent, QUESTION, '-o', 'stream-json', '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 0, run.stderr);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; text?: string; runId: string });
    assert.equal(events[0]?.type, 'run-start');
    assert.equal(events.at(-1)?.type, 'run-end');
    for (const type of ['llm-start', 'tool-start', 'tool-end', 'text-delta', 'usage']) assert.ok(events.some((e) => e.type === type), `has ${type}`);
    assert.equal(events.filter((e) => e.type === 'text-delta').map((e) => e.text).join(''), ANSWER);
    assert.equal(new Set(events.map((e) => e.runId)).size, 1);
    // usage fields are never taken for secrets (issue 13 item 9: "toolTokens":"[REDACTED]")
    const end = events.at(-1) as unknown as { usage: { toolTokens: unknown; toolUsage: unknown; totalTokens: unknown } };
    assert.deepEqual(Object.keys(end.usage.toolTokens as object), ['multiply']);
    assert.deepEqual(end.usage.toolUsage, { multiply: 1 });
    assert.equal(typeof end.usage.totalTokens, 'number');
    assert.ok(!run.stdout.includes('[REDACTED]'), 'nothing redacted in a run without secrets');
  });

  test('the prompt can come from stdin', async () => {
    enqueueCalculator(server);
    const start = server.requests.length;
    const run = await agentlib(['run', project.agent, '--quiet', '--no-trace'], { cwd: project.dir, env: cliEnv(server), input: `${QUESTION}\n` });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, ANSWER);
    const body = server.requests[start]?.json as { messages: { role: string; content: string }[] };
    assert.deepEqual(body.messages.at(-1), { role: 'user', content: QUESTION });
  });

  test('no prompt and nothing on stdin: a usage error (exit 2)', async () => {
    const run = await agentlib(['run', project.agent], { cwd: project.dir, env: cliEnv(server), input: '' });
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /prompt on stdin is empty/);
  });

  test('record, then replay with no network: identical output in every format', async () => {
    const cassette = join(project.dir, 'cassette.jsonl');
    enqueueCalculator(server);
    const recorded = await agentlib(['run', project.agent, QUESTION, '--record', cassette, '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(recorded.exitCode, 0, recorded.stderr);
    assert.match(recorded.stderr, /recorded 2 provider call\(s\)/);
    assert.doesNotMatch(readFileSync(cassette, 'utf8'), /sk-test-not-a-real-key/);
    const replayed = await agentlib(['run', project.agent, QUESTION, '--replay', cassette, '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(replayed.exitCode, 0, replayed.stderr);
    assert.equal(replayed.stdout, recorded.stdout);
    const json = await agentlib(['run', project.agent, QUESTION, '--replay', cassette, '-o', 'json', '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    const doc = JSON.parse(json.stdout) as { content: string; usage: { totalTokens: number } };
    assert.equal(doc.content, ANSWER);
    assert.equal(doc.usage.totalTokens, 187);
    const changed = await agentlib(['run', project.agent, 'What is 2 * 3?', '--replay', cassette, '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(changed.exitCode, 3);
    assert.match(changed.stderr, /differs at messages\[0\]\.content: recorded "What is 1231 \* 2331\?", now "What is 2 \* 3\?"/);
  });

  test('the shipped example replays from its cassette on a fresh machine', async () => {
    const run = await agentlib(['run', 'calculator/agent.yaml', QUESTION, '--replay', 'calculator/cassette.jsonl', '--no-trace'], { cwd: project.dir, env: cliEnv(undefined, { OPENAI_API_KEY: '' }) });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, ANSWER);
  });

  test("the README's command-line quick start runs as written, offline", async () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const line = /^npx agentlib (run examples\/calculator\/agent\.yaml .*)$/m.exec(readme)?.[1];
    assert.ok(line !== undefined, 'README shows the calculator replay command');
    const args = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
    const run = await agentlib([...args, '--no-trace'], { cwd: repoRoot, env: cliEnv(undefined, { OPENAI_API_KEY: '' }) });
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(run.stdout, ANSWER);
  });

  test('malformed YAML: exit 2 with file:line:col', async () => {
    const file = join(project.dir, 'broken.yaml');
    writeFileSync(file, 'name: broken\nprovider: openai\n  model: [gpt-4o\n');
    const run = await agentlib(['run', file, 'hi'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 2);
    assert.match(run.stderr, /broken\.yaml:\d+:\d+/);
  });

  test('unknown key and unknown tool export: exit 2, positions and did-you-mean', async () => {
    const file = join(project.dir, 'calculator', 'typo.yaml');
    writeFileSync(file, 'name: typo\nprovider: openai\nmax_iteration: 3\ntools:\n  - ./tools.ts#multiplyy\n');
    const run = await agentlib(['run', file, 'hi'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /typo\.yaml:3:1: .*max_iteration.*did you mean "max_iterations"/);
    const tools = join(project.dir, 'calculator', 'tools-typo.yaml');
    writeFileSync(tools, 'name: typo\nprovider: openai\ntools:\n  - ./tools.ts#multiplyy\n');
    const second = await agentlib(['run', tools, 'hi'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(second.exitCode, 2, second.stderr);
    assert.match(second.stderr, /tools-typo\.yaml:4:\d+: .*multiplyy.*multiply/);
  });

  test('a provider 401: exit 3 with a typed message naming the provider and status', async () => {
    server.enqueue(...recordedResponses('openai/error.401.invalid_api_key.interactions.json'));
    const run = await agentlib(['run', project.agent, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 3, run.stderr);
    assert.match(run.stderr, /ProviderError: .*provider openai.*status 401/);
    assert.equal(run.stdout, '');
  });

  test('approvals: --approve none denies review-gated tools, --approve all runs them, a policy file decides', async () => {
    const file = join(project.dir, 'calculator', 'gated.yaml');
    writeFileSync(file, 'name: gated\nprovider: openai\nmodel: gpt-4o-mini\ntools: [./tools.ts]\npolicy:\n  review: [multiply]\n  allow: [add, divide]\n');
    enqueueCalculator(server);
    const denied = await agentlib(['run', file, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(denied.exitCode, 0, denied.stderr);
    assert.match(denied.stderr, /\? multiply not approved \(denied\)/);
    enqueueCalculator(server);
    const start = server.requests.length;
    const allowed = await agentlib(['run', file, QUESTION, '--no-trace', '--approve', 'all'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(allowed.exitCode, 0, allowed.stderr);
    assert.match(allowed.stderr, /✓ multiply/);
    const toolMessage = (server.requests[start + 1]?.json as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'tool');
    assert.equal(toolMessage?.content, '2869461');
    const policy = join(project.dir, 'approve.yaml');
    writeFileSync(policy, 'allow: [multiply]\n');
    enqueueCalculator(server);
    const byPolicy = await agentlib(['run', file, QUESTION, '--no-trace', '--approve', policy], { cwd: project.dir, env: cliEnv(server) });
    assert.match(byPolicy.stderr, /✓ multiply/);
  });

  test('Ctrl+C cancels the run cleanly: exit 130', async () => {
    server.enqueue({ hang: true });
    const start = server.requests.length;
    const child = agentlib(['run', project.agent, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    const deadline = Date.now() + 15_000;
    while (server.requests.length === start && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    const run = await child;
    assert.equal(run.exitCode, 130, run.stderr);
    assert.match(run.stderr, /Interrupted/);
  });

  test('json on failure: still one document, status error, with the error', async () => {
    server.enqueue(jsonResponse({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401));
    const run = await agentlib(['run', project.agent, QUESTION, '-o', 'json', '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(run.exitCode, 3);
    const doc = JSON.parse(run.stdout) as { status: string; error: { name: string } };
    assert.equal(doc.status, 'error');
    assert.equal(doc.error.name, 'ProviderError');
  });
});
