// Issue 13 item 8 at the library level: the config names the environment variables it
// interpolated; a RecordingProvider given them scrubs their values and lists the names in the
// header; a ReplayProvider scrubs the same variables' current values, so replay matches.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { parseAgentConfig } from '../../../../lib/config/parse-agent-config.js';
import { readCassette, RecordingProvider, ReplayProvider } from '../../../../lib/providers/replay/index.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import { testRuntime } from '../../../support/agent-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-scrub-env-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('environment values interpolated into the config are scrubbed from cassettes', () => {
  test('parseAgentConfig lists the variables the environment answered (not the caller vars, not defaults)', () => {
    const config = parseAgentConfig('provider: openai\nsystem_prompt: "For ${ACCOUNT} in ${REGION} (${MISSING:-none}), ${ACCOUNT} again"\n', {
      env: { ACCOUNT: 'acct-0001-alpha', REGION: 'eu-west-1' },
      vars: { REGION: 'us-east-1' },
    });
    assert.equal(config.systemPrompt, 'For acct-0001-alpha in us-east-1 (none), acct-0001-alpha again');
    assert.deepEqual(config.interpolatedEnv, ['ACCOUNT']);
    assert.equal(parseAgentConfig('provider: openai\n', { env: {} }).interpolatedEnv, undefined);
  });

  test('RecordingProvider scrubEnv: the value never reaches the file, the header names it, replay matches another value', async () => {
    const path = join(dir, 'c.jsonl');
    const env = { CUSTOMER_ACCOUNT: 'acct-7781-blue-harbor' };
    const recorder = new RecordingProvider(new ScriptedProvider({ replies: ['Your account acct-7781-blue-harbor is fine'] }), { path, env, scrubEnv: ['CUSTOMER_ACCOUNT'] });
    const system = (account: string): string => `You serve ${account}.`;
    await new Agent({ provider: recorder, systemPrompt: system(env.CUSTOMER_ACCOUNT), runtime: testRuntime() }).run('hi');
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes('acct-7781-blue-harbor'), text);
    assert.deepEqual(readCassette(path).header.scrubEnv, ['CUSTOMER_ACCOUNT']);

    const other = { CUSTOMER_ACCOUNT: 'acct-0042-other' };
    const replayed = await new Agent({ provider: ReplayProvider.fromFile(path, { env: other }), systemPrompt: system(other.CUSTOMER_ACCOUNT), runtime: testRuntime() }).run('hi');
    assert.equal(replayed.content, 'Your account [REDACTED:CUSTOMER_ACCOUNT] is fine');
  });

  test('a recorded error is scrubbed like the rest of the file (secret and interpolated values)', async () => {
    const path = join(dir, 'errors.jsonl');
    const env = { PROXY_API_KEY: 'plainkey-0000-1111', CUSTOMER_ACCOUNT: 'acct-7781-blue-harbor' };
    const failure = new Error('upstream rejected plainkey-0000-1111 for acct-7781-blue-harbor');
    const recorder = new RecordingProvider(new ScriptedProvider({ replies: [{ error: failure }] }), { path, env, scrubEnv: ['CUSTOMER_ACCOUNT'] });
    await assert.rejects(recorder.complete({ model: 'm', messages: [{ role: 'user', content: 'x' }] }));
    const text = readFileSync(path, 'utf8');
    assert.match(text, /upstream rejected \[REDACTED:PROXY_API_KEY\] for \[REDACTED:CUSTOMER_ACCOUNT\]/);
  });
});
