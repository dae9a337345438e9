import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { UsageError } from '../../../cli/usage-error.js';
import { agentRequestFrom, providerTimeoutMs } from '../../../commands/run/agent-request.js';
import { planAgentLoad } from '../../../commands/run/resolve-agent.js';
import type { CommandArguments } from '../../../commands/command-module.js';
import { repoRoot } from '../../support/cli-build.js';

const base = { cwd: repoRoot, env: {}, vars: {} };
const agent = 'examples/calculator/agent.yaml';

/** Parsed arguments as yargs gives them. */
const argv = (options: Record<string, unknown>): CommandArguments => ({ _: [], color: false, debug: false, agent, ...options });

describe('--timeout (run, chat) and --provider-timeout (serve): the provider\'s first-byte and idle timeouts', () => {
  test('seconds become milliseconds for both limits; 0 turns them off', () => {
    assert.equal(providerTimeoutMs(undefined, '--timeout'), undefined);
    assert.equal(providerTimeoutMs(1.5, '--timeout'), 1_500);
    assert.equal(providerTimeoutMs(0, '--provider-timeout'), 0);
    const plan = planAgentLoad(agentRequestFrom(argv({ timeout: 2 }), base, '--timeout'));
    assert.deepEqual(plan.options.providerTimeouts, { firstByteTimeoutMs: 2_000, idleTimeoutMs: 2_000 });
  });

  test('serve reads --provider-timeout, never its request --timeout', () => {
    const plan = planAgentLoad(agentRequestFrom(argv({ timeout: 120, providerTimeout: 3 }), base, '--provider-timeout'));
    assert.deepEqual(plan.options.providerTimeouts, { firstByteTimeoutMs: 3_000, idleTimeoutMs: 3_000 });
    assert.equal(planAgentLoad(agentRequestFrom(argv({ timeout: 120 }), base, '--provider-timeout')).options.providerTimeouts, undefined);
  });

  test('refused, naming the flag: not a number of seconds ≥ 0, or with --replay (no provider is called)', () => {
    for (const value of [-1, Number.NaN, 'soon']) {
      assert.throws(() => agentRequestFrom(argv({ timeout: value }), base, '--timeout'), (error: unknown) => UsageError.isInstance(error) && error.message.startsWith('--timeout takes a number of seconds'));
    }
    const replay = agentRequestFrom(argv({ providerTimeout: 5, replay: 'examples/calculator/cassette.jsonl' }), base, '--provider-timeout');
    assert.throws(() => planAgentLoad(replay), (error: unknown) => UsageError.isInstance(error) && error.message === '--provider-timeout has no effect with --replay (the cassette answers; no provider is called).');
  });
});
