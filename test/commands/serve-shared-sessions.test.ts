import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonResponse } from '../support/replay-server.js';
import { requires } from '../support/requirements.js';
import { redisTestUrl } from '../support/services.js';
import { RedisSessionStore } from '../../lib/sessions/redis-session-store.js';
import { closeAllStorage } from '../../lib/storage/index.js';
import { cliEnv, cliSuite } from './run-helpers.js';
import { startServe } from './serve-helpers.js';

/** An OpenAI chat completion answering `text`. */
function completion(text: string): ReturnType<typeof jsonResponse> {
  return jsonResponse({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_770_000_000,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
  });
}

describe('two agentlib serve processes sharing a Redis session store', requires('redis'), () => {
  const suite = cliSuite();

  test('requests alternating between them continue one conversation and nothing is lost', { timeout: 60_000 }, async () => {
    const { server, project } = suite;
    const keyPrefix = `agentlib-test-serve-${process.pid}`;
    const storeUrl = redisTestUrl();
    const env = cliEnv(server);
    const a = await startServe([project.agent, '--quiet', '--session-store', storeUrl], { cwd: project.dir, env });
    const b = await startServe([project.agent, '--quiet', '--session-store', storeUrl], { cwd: project.dir, env });
    const sessionId = `shared-${keyPrefix}`;
    try {
      for (let turn = 0; turn < 6; turn++) {
        const target = turn % 2 === 0 ? a : b;
        server.enqueue(completion(`answer ${turn}`));
        const res = await fetch(`${target.url}/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: `question ${turn}`, session_id: sessionId }) });
        assert.equal(res.status, 200, `${await res.clone().text()}\n${target.stderr()}`);
        assert.equal(((await res.json()) as { content: string }).content, `answer ${turn}`);
        // The provider saw the whole conversation so far, whichever server answered before.
        const sent = (server.requests.at(-1)!.json as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role !== 'system');
        const expected = Array.from({ length: turn }, (_, i) => [`question ${i}`, `answer ${i}`]).flat().concat(`question ${turn}`);
        assert.deepEqual(sent.map((m) => m.content), expected, `turn ${turn} on server ${turn % 2 === 0 ? 'A' : 'B'}`);
      }
    } finally {
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
      assert.equal((await a.child).exitCode, 0);
      assert.equal((await b.child).exitCode, 0);
    }
    const store = new RedisSessionStore({ url: storeUrl, namespace: 'calculator' });
    try {
      const record = await store.load(sessionId);
      assert.deepEqual(record?.messages.map((m) => m.content), Array.from({ length: 6 }, (_, i) => [`question ${i}`, `answer ${i}`]).flat());
      await store.delete(sessionId);
    } finally {
      await store.close();
      await closeAllStorage();
    }
  });
});
