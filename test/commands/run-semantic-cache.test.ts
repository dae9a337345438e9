import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { jsonResponse } from '../support/replay-server.js';
import { agentlib, cliEnv, cliSuite, QUESTION } from './run-helpers.js';

const ANSWER = '1231 × 2331 = 2,869,461.';

/** Non-streamed chat completions for the calculator (a run with a cache is not streamed): a multiply call, then the answer. */
function completions(): ReturnType<typeof jsonResponse>[] {
  const base = { object: 'chat.completion', created: 1_700_000_000, model: 'gpt-4o-mini' };
  return [
    jsonResponse({ ...base, id: 'chatcmpl-1', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'multiply', arguments: '{"a":1231,"b":2331}' } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 60, completion_tokens: 18, total_tokens: 78 } }),
    jsonResponse({ ...base, id: 'chatcmpl-2', choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }], usage: { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 } }),
  ];
}

/** The calculator's agent file with `cache:` appended, written next to the original. */
function agentWithCache(agent: string, name: string, cache: string): string {
  const file = join(agent, '..', name);
  writeFileSync(file, `${readFileSync(agent, 'utf8')}\ncache:\n${cache}`);
  return file;
}

describe('agentlib run with cache.semantic.embedder (built binary)', () => {
  const suite = cliSuite();

  test('an embedder of its own is used: the run answers and stores its replies in the exact store', async () => {
    const { server, project } = suite;
    const agent = agentWithCache(project.agent, 'semantic.yaml', '  url: sqlite://semantic-cache.db\n  semantic: { embedder: "hashing:256", threshold: 0.95 }\n');
    server.enqueue(...completions());
    const seen = server.requests.length;
    const first = await agentlib(['run', agent, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(first.exitCode, 0, first.stderr);
    assert.equal(first.stdout, ANSWER);
    // The question stored with each reply was embedded by the cache's own embedder, not through the OpenAI provider.
    assert.deepEqual(server.requests.slice(seen).map((r) => r.path), ['/v1/chat/completions', '/v1/chat/completions']);
    assert.ok(existsSync(join(project.dir, 'calculator', 'semantic-cache.db')), 'the exact store is next to the agent file');
    // The same question in a new process is an exact hit from the file (the similarity index lives in memory).
    const second = await agentlib(['run', agent, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(second.exitCode, 0, second.stderr);
    assert.equal(second.stdout, ANSWER);
  });

  test('an unknown embedder, or one with embedding_model too, is refused with exit 2', async () => {
    const { project } = suite;
    const unknown = agentWithCache(project.agent, 'unknown-embedder.yaml', '  url: memory://\n  semantic: { embedder: word2vec }\n');
    const run = await agentlib(['run', unknown, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /"cache\.semantic\.embedder" must be hashing, openai, gemini, ollama, cohere \(optionally :model\); got "word2vec"/);
    const both = agentWithCache(project.agent, 'both.yaml', '  url: memory://\n  semantic: { embedder: openai, embedding_model: text-embedding-3-large }\n');
    const refused = await agentlib(['run', both, QUESTION, '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(refused.exitCode, 2, refused.stderr);
    assert.match(refused.stderr, /takes embedding_model \(the agent provider's model\) or embedder \(an embedder of its own\), not both/);
  });
});
