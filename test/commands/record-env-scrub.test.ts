// Issue 13 item 8: a value interpolated from the environment into the system prompt (`${VAR}`)
// never reaches a `--record` cassette, whatever the variable's name; replay still matches, with
// the variable set to any value.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { agentlib, ANSWER, cliEnv, cliSuite, enqueueCalculator, QUESTION } from './run-helpers.js';

describe('agentlib run --record: values interpolated from the environment are scrubbed', () => {
  const suite = cliSuite();

  test('not in the cassette (names in its header); replay matches with another value', async () => {
    const { server, project } = suite;
    const agent = join(project.dir, 'calculator', 'account-agent.yaml');
    const original = readFileSync(project.agent, 'utf8');
    writeFileSync(agent, original.replace('system_prompt: |\n', 'system_prompt: |\n  You serve account ${CUSTOMER_ACCOUNT} (tier ${TIER}).\n'));
    const cassette = join(project.dir, 'account.cassette.jsonl');
    const value = 'acct-7781-blue-harbor';

    enqueueCalculator(server);
    const recorded = await agentlib(['run', agent, QUESTION, '--record', cassette, '--no-trace', '--var', 'TIER=gold-plus-tier'], {
      cwd: project.dir,
      env: cliEnv(server, { CUSTOMER_ACCOUNT: value }),
    });
    assert.equal(recorded.exitCode, 0, recorded.stderr);
    const systemSent = (server.requests.at(-1)?.json as { messages: { role: string; content: string }[] }).messages[0]?.content ?? '';
    assert.ok(systemSent.includes(value), 'the provider got the real value');
    const text = readFileSync(cassette, 'utf8');
    assert.ok(!text.includes(value), text);
    assert.match(text, /You serve account \[REDACTED:CUSTOMER_ACCOUNT\] \(tier gold-plus-tier\)/, 'a --var is not from the environment: kept');
    assert.deepEqual((JSON.parse(text.split('\n')[0] ?? '{}') as { scrubEnv?: string[] }).scrubEnv, ['CUSTOMER_ACCOUNT']);

    for (const account of [value, 'another-account-0042']) {
      const replayed = await agentlib(['run', agent, QUESTION, '--replay', cassette, '--no-trace', '--var', 'TIER=gold-plus-tier'], {
        cwd: project.dir,
        env: cliEnv(undefined, { CUSTOMER_ACCOUNT: account }),
      });
      assert.equal(replayed.exitCode, 0, replayed.stderr);
      assert.equal(replayed.stdout, ANSWER);
    }
  });
});
