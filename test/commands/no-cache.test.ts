// `--no-cache` on run and serve: the agent file's `cache:` is not opened (issue 18). chat takes the
// same flag through the same AgentRequest (agentRequestFrom → resolveAgent); it needs a terminal.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ANSWER, agentlib, cliEnv, cliSuite, QUESTION } from './run-helpers.js';
import { invoke, startServe } from './serve-helpers.js';

describe('--no-cache (built binary, no network)', () => {
  const suite = cliSuite();
  /** The calculator with `cache: true` (SQLite .agentlib/agentlib.db next to the file), and that file's path. */
  const cachedAgent = (): { cassette: string; db: string } => {
    const { project } = suite;
    if (!existsSync(join(project.dir, 'calculator', '.cache-added'))) {
      appendFileSync(project.agent, '\ncache: true\n');
      appendFileSync(join(project.dir, 'calculator', '.cache-added'), '');
    }
    return { cassette: join(project.dir, 'calculator', 'cassette.jsonl'), db: join(project.dir, 'calculator', '.agentlib', 'agentlib.db') };
  };

  test('run --no-cache leaves the file\'s cache: closed (no database); without it the file\'s cache opens', async () => {
    const { project } = suite;
    const { cassette, db } = cachedAgent();
    const ignored = await agentlib(['run', project.agent, QUESTION, '--replay', cassette, '--no-cache', '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(ignored.exitCode, 0, ignored.stderr);
    assert.equal(ignored.stdout, ANSWER);
    assert.equal(existsSync(db), false, 'the file\'s cache was not opened');
    // (The cassette holds a streamed recording and a run with a cache is not streamed: only the opening matters here.)
    await agentlib(['run', project.agent, QUESTION, '--replay', cassette, '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(existsSync(db), true, 'without --no-cache the file\'s cache: is used');
  });

  test('serve --no-cache answers without opening the file\'s cache', async () => {
    const { project } = suite;
    const { cassette, db } = cachedAgent();
    rmSync(join(project.dir, 'calculator', '.agentlib'), { recursive: true, force: true });
    const serve = await startServe([project.agent, '--replay', cassette, '--no-cache'], { cwd: project.dir, env: cliEnv(undefined) });
    try {
      const res = await invoke(serve.url, QUESTION);
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(((await res.json()) as { content: string }).content, ANSWER);
      assert.equal(existsSync(db), false, 'the file\'s cache was not opened');
    } finally {
      serve.child.kill('SIGTERM');
      await serve.child;
    }
  });
});
