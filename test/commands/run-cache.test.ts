import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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

describe('agentlib run --cache (built binary)', () => {
  const suite = cliSuite();

  test('a second process answers the same prompt from .agentlib/agentlib.db with no provider call', async () => {
    const { server, project } = suite;
    server.enqueue(...completions());
    const first = await agentlib(['run', project.agent, QUESTION, '--cache', '--no-trace'], { cwd: project.dir, env: cliEnv(server) });
    assert.equal(first.exitCode, 0, first.stderr);
    assert.equal(first.stdout, ANSWER);
    assert.ok(existsSync(join(project.dir, '.agentlib', 'agentlib.db')));
    // No server this time: any provider call would fail at once.
    const second = await agentlib(['run', project.agent, QUESTION, '--cache', '--no-trace', '-o', 'json'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(second.exitCode, 0, second.stderr);
    const doc = JSON.parse(second.stdout) as { content: string; usage: { totalTokens: number; llmCalls?: number } };
    assert.equal(doc.content, ANSWER);
    assert.equal(doc.usage.totalTokens, 178, 'the cached replies still count their tokens');
  });

  test('--cache with a URL it cannot use is refused (exit 2) naming the schemes', async () => {
    const { project } = suite;
    const run = await agentlib(['run', project.agent, QUESTION, '--cache', 'ftp://somewhere', '--no-trace'], { cwd: project.dir, env: cliEnv(undefined) });
    assert.equal(run.exitCode, 2, run.stderr);
    assert.match(run.stderr, /--cache takes a store URL: memory:\/\/, sqlite:\/\/\[file\], redis:\/\/host:port or rediss:\/\/; got "ftp:\/\/somewhere"/);
  });
});
