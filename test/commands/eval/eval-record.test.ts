import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execa } from 'execa';
import { binPath, ensureCliBuilt, repoRoot } from '../../support/cli-build.js';
import { jsonResponse, startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { keylessEnv } from '../../templates/offline-run.js';

const SUITE = (agent: string): string => `description: recorded
agent: ${JSON.stringify(agent)}
grader: openai:gpt-4o-mini
tests:
  - description: weather in San Francisco
    input: What is the weather in San Francisco?
    assert:
      - type: refusal
      - type: llm-rubric
        value: sends the user to a weather service
  - description: weather in Oslo
    input: What is the weather in Oslo?
    assert:
      - type: icontains
        value: weather app
`;

/** An OpenAI chat completion (the eval runs call `complete`, not `stream`). */
function chatReply(content: string): ReturnType<typeof jsonResponse> {
  return jsonResponse({ id: 'chatcmpl-judge', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 50, completion_tokens: 9, total_tokens: 59 } });
}

describe('agentlib eval run --record, then --replay offline', () => {
  let server: ReplayServer;
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-eval-record-'));
  before(async () => {
    ensureCliBuilt();
    server = await startReplayServer();
  });
  after(async () => {
    await server.close();
  });

  test('the suite records the agent calls and the judge calls, and replays them with the same verdicts and no network', async () => {
    const suite = join(dir, 'suite.yaml');
    writeFileSync(suite, SUITE(join(repoRoot, 'examples', 'calculator', 'agent.yaml')));
    const answer = chatReply("I'm unable to provide real-time weather updates. Check a reliable weather website or a weather app.");
    // -j 1: case 1's agent call, its judge call, then case 2's agent call.
    server.enqueue(answer, chatReply('{"score": 0.9, "reason": "points to a weather app"}'), answer);
    const env = { ...keylessEnv(), OPENAI_API_KEY: 'sk-test-not-a-real-key', OPENAI_BASE_URL: `${server.url}/v1` };
    const recorded = await execa(process.execPath, [binPath, 'eval', 'run', suite, '-j', '1', '--record', 'suite.cassette.jsonl', '-o', 'recorded.json'], { cwd: dir, reject: false, extendEnv: false, env });
    assert.equal(recorded.exitCode, 0, `${recorded.stdout}\n${recorded.stderr}\n${server.requests.map((r) => `${r.path} ${r.text.slice(0, 300)}`).join('\n')}`);
    assert.equal(server.pending(), 0);
    assert.match(recorded.stderr, /recorded 2 provider call\(s\) to .*suite\.cassette\.jsonl/);
    assert.ok(existsSync(join(dir, 'suite.cassette.grader.jsonl')), 'the judge calls are recorded beside the cassette');
    const cassette = readFileSync(join(dir, 'suite.cassette.jsonl'), 'utf8');
    assert.doesNotMatch(cassette, /sk-test-not-a-real-key/);

    // Offline: no key, no base URL; every call (agent and judge) comes from the cassettes.
    const replayed = await execa(process.execPath, [binPath, 'eval', 'run', suite, '--replay', 'suite.cassette.jsonl', '--json'], { cwd: dir, reject: false, extendEnv: false, env: keylessEnv() });
    assert.equal(replayed.exitCode, 0, `${replayed.stdout}\n${replayed.stderr}`);
    const doc = JSON.parse(replayed.stdout) as { report: { cases: { id: string; verdict: string; attempts: { assertions: { type: string; reason: string }[] }[] }[] } };
    assert.deepEqual(doc.report.cases.map((c) => [c.id, c.verdict]), [['weather in San Francisco', 'pass'], ['weather in Oslo', 'pass']]);
    assert.match(doc.report.cases[0]?.attempts[0]?.assertions[1]?.reason ?? '', /score 0\.9/);
    const before = JSON.parse(readFileSync(join(dir, 'recorded.json'), 'utf8')) as { cases: { verdict: string }[] };
    assert.deepEqual(before.cases.map((c) => c.verdict), ['pass', 'pass']);
  });

  test('--record dir/ writes one cassette per case (and the judge in _grader.jsonl); --replay dir replays them; a missing cassette errors that case alone', async () => {
    const suite = join(dir, 'suite-dir.yaml');
    writeFileSync(suite, SUITE(join(repoRoot, 'examples', 'calculator', 'agent.yaml')));
    const answer = chatReply("I'm unable to provide real-time weather updates. Check a reliable weather website or a weather app.");
    server.enqueue(answer, chatReply('{"score": 0.9, "reason": "points to a weather app"}'), answer);
    const env = { ...keylessEnv(), OPENAI_API_KEY: 'sk-test-not-a-real-key', OPENAI_BASE_URL: `${server.url}/v1` };
    const recorded = await execa(process.execPath, [binPath, 'eval', 'run', suite, '-j', '1', '--record', 'cassettes/'], { cwd: dir, reject: false, extendEnv: false, env });
    assert.equal(recorded.exitCode, 0, `${recorded.stdout}\n${recorded.stderr}`);
    assert.match(recorded.stderr, /recorded 2 provider call\(s\) to 2 cassette\(s\) in .*cassettes/);
    const files = readdirSync(join(dir, 'cassettes')).sort();
    assert.equal(files.length, 3, files.join(', '));
    assert.equal(files[0], '_grader.jsonl');
    assert.match(files.slice(1).join(' '), /^weather-in-oslo-[0-9a-f]{8}\.jsonl weather-in-san-francisco-[0-9a-f]{8}\.jsonl$/);
    assert.match(readFileSync(join(dir, 'cassettes', files[1] as string), 'utf8'), /Oslo/);
    assert.doesNotMatch(readFileSync(join(dir, 'cassettes', files[1] as string), 'utf8'), /San Francisco/);

    // Offline, per case; the cases run in any order at -j 4.
    const replayed = await execa(process.execPath, [binPath, 'eval', 'run', suite, '--replay', 'cassettes', '-j', '4', '--json'], { cwd: dir, reject: false, extendEnv: false, env: keylessEnv() });
    assert.equal(replayed.exitCode, 0, `${replayed.stdout}\n${replayed.stderr}`);
    const doc = JSON.parse(replayed.stdout) as { report: { cases: { id: string; verdict: string; attempts: { error?: string }[] }[] } };
    assert.deepEqual(doc.report.cases.map((c) => [c.id, c.verdict]), [['weather in San Francisco', 'pass'], ['weather in Oslo', 'pass']]);

    rmSync(join(dir, 'cassettes', files[1] as string));
    const missing = await execa(process.execPath, [binPath, 'eval', 'run', suite, '--replay', 'cassettes', '--json'], { cwd: dir, reject: false, extendEnv: false, env: keylessEnv() });
    assert.equal(missing.exitCode, 3, missing.stderr);
    const partial = JSON.parse(missing.stdout) as typeof doc;
    assert.deepEqual(partial.report.cases.map((c) => c.verdict), ['pass', 'error']);
    assert.match(partial.report.cases[1]?.attempts[0]?.error ?? '', /no cassette for case "weather in Oslo": cassettes\/weather-in-oslo-[0-9a-f]{8}\.jsonl is missing \(record it with --record cassettes\/\)/);
  });
});
