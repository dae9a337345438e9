// `agentlib serve --replay` (issue 13 item 3): one recorded run answers every request that matches
// it, over and over; a request the cassette does not hold gets a 422 naming the cassette and the
// first difference, not a 500.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readSse } from '../lib/serve/helpers.js';
import { ANSWER, cliEnv, cliSuite, QUESTION } from './run-helpers.js';
import { invoke, startServe, stream } from './serve-helpers.js';

describe('agentlib serve --replay (built binary, no network)', () => {
  const suite = cliSuite();

  test('the same prompt is answered 3 times from one recording; a prompt not in the cassette gets a 422 with the first difference', async () => {
    const { project } = suite;
    const cassette = join(project.dir, 'calculator', 'cassette.jsonl');
    // No provider server at all: every answer comes from the cassette.
    const serve = await startServe([project.agent, '--replay', cassette], { cwd: project.dir, env: cliEnv(undefined) });
    try {
      for (let i = 1; i <= 3; i++) {
        const res = await invoke(serve.url, QUESTION);
        assert.equal(res.status, 200, `request ${i}: ${await res.clone().text()}\n${serve.stderr()}`);
        assert.equal(((await res.json()) as { content: string }).content, ANSWER, `request ${i}`);
      }
      const events = await readSse(await stream(serve.url, QUESTION));
      assert.equal((events.at(-1)?.data as { content: string }).content, ANSWER, 'and streamed once more');

      const miss = await invoke(serve.url, 'What is 2 * 3?');
      assert.equal(miss.status, 422, await miss.clone().text());
      const { error } = (await miss.json()) as { error: { type: string; message: string } };
      assert.equal(error.type, 'replay_mismatch_error');
      assert.ok(error.message.includes(cassette), error.message);
      assert.match(error.message, /differs at messages\[0\]\.content: recorded "What is 1231 \* 2331\?", now "What is 2 \* 3\?"/);

      const frames = await readSse(await stream(serve.url, 'What is 2 * 3?'));
      const last = frames.at(-1);
      assert.equal(last?.event, 'error');
      assert.equal((last?.data as { error: { type: string } }).error.type, 'replay_mismatch_error', JSON.stringify(last));

      const after = await invoke(serve.url, QUESTION);
      assert.equal(after.status, 200, 'a miss does not disturb the recording');
      assert.doesNotMatch(serve.stderr(), /internal_error|Internal server error/);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.child;
    }
  });
});
