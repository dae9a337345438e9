import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { loadAgent } from '../../../lib/config/load-agent.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import type { CallTimeouts } from '../../../lib/providers/call-timeouts.js';
import { createProvider, withProviderTimeouts, type ProviderSpec } from '../../../lib/providers/create-provider.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { brief, issuesOf, tempProject } from '../config/project.js';

const timeoutsOf = (provider: unknown): CallTimeouts => (provider as { timeouts: CallTimeouts }).timeouts;

describe('provider timeouts from YAML, createProvider and loadAgent', () => {
  test('YAML: first_byte_timeout_ms and idle_timeout_ms beside timeout_ms; 0 turns one off; bad values are refused', () => {
    const yaml = 'provider:\n  type: ollama\n  timeout_ms: 300000\n  first_byte_timeout_ms: 0\n  idle_timeout_ms: 15000\n';
    assert.deepEqual(parseAgentConfig(yaml).provider, { type: 'ollama', timeoutMs: 300_000, firstByteTimeoutMs: 0, idleTimeoutMs: 15_000 });
    const issues = brief(issuesOf(() => parseAgentConfig('provider:\n  type: openai\n  idle_timeout_ms: -1\n  first_byte_timeout_ms: soon\n')));
    assert.equal(issues.length, 2, issues.join('\n'));
    assert.ok(issues.some((issue) => issue.includes('idle_timeout_ms')));
    assert.ok(issues.some((issue) => issue.includes('first_byte_timeout_ms')));
  });

  test('createProvider hands the three limits to every adapter; unset ones keep the defaults', async () => {
    const limits = { timeout_ms: 90_000, first_byte_timeout_ms: 5_000, idle_timeout_ms: 7_000 };
    const expected: CallTimeouts = { totalMs: 90_000, firstByteMs: 5_000, idleMs: 7_000 };
    const specs: ProviderSpec[] = [
      { type: 'openai', apiKey: 'sk-x', ...limits },
      { type: 'anthropic', apiKey: 'sk-ant-x', ...limits },
      { type: 'gemini', apiKey: 'g-x', ...limits },
      { type: 'ollama', ...limits },
      { type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'm', ...limits },
      { type: 'azure', apiKey: 'az-x', base_url: 'https://r.openai.azure.com', deployment: 'd', ...limits },
    ];
    for (const spec of specs) assert.deepEqual(timeoutsOf(await createProvider(spec)), expected, JSON.stringify(spec));
    assert.deepEqual(timeoutsOf(await createProvider({ type: 'ollama' })), { totalMs: 600_000, firstByteMs: 60_000, idleMs: 60_000 });
  });

  test('withProviderTimeouts (--timeout) sets the limits on a name, an object (over its own) and every entry of a chain', async () => {
    const flag = { firstByteTimeoutMs: 2_000, idleTimeoutMs: 2_000 };
    assert.deepEqual(withProviderTimeouts('ollama', flag), { type: 'ollama', ...flag });
    assert.deepEqual(withProviderTimeouts({ type: 'ollama', idleTimeoutMs: 9, timeoutMs: 5 }, flag), { type: 'ollama', timeoutMs: 5, ...flag });
    assert.deepEqual(withProviderTimeouts(['ollama', { type: 'ollama', first_byte_timeout_ms: 9 }], flag), [
      { type: 'ollama', ...flag },
      { type: 'ollama', first_byte_timeout_ms: 9, ...flag },
    ]);
    // camelCase wins over the snake_case key it shadows.
    assert.deepEqual(timeoutsOf(await createProvider(withProviderTimeouts({ type: 'ollama', first_byte_timeout_ms: 9 }, flag))), { totalMs: 600_000, firstByteMs: 2_000, idleMs: 2_000 });
  });

  test('loadAgent: providerTimeouts reach the file\'s provider; with a ready provider they are refused, not ignored', async () => {
    const project = await tempProject({ 'agent.yaml': 'name: a\nprovider:\n  type: ollama\n  idle_timeout_ms: 30000\n' });
    try {
      let built: ProviderSpec | undefined;
      const createProviderSpy = async (spec: ProviderSpec): Promise<ScriptedProvider> => {
        built = spec;
        return new ScriptedProvider({ name: 'fake' });
      };
      await loadAgent(`${project.dir}/agent.yaml`, { providerTimeouts: { idleTimeoutMs: 1_000 }, createProvider: createProviderSpy });
      assert.deepEqual(built, { type: 'ollama', idleTimeoutMs: 1_000 });
      await loadAgent(`${project.dir}/agent.yaml`, { createProvider: createProviderSpy });
      assert.deepEqual(built, { type: 'ollama', idleTimeoutMs: 30_000 }, 'without the option the file\'s own');
      await assert.rejects(
        loadAgent(`${project.dir}/agent.yaml`, { provider: new ScriptedProvider({ name: 'fake' }), providerTimeouts: { idleTimeoutMs: 1_000 } }),
        (error: unknown) => ConfigurationError.isInstance(error) && /providerTimeouts apply to providers built from a spec/.test(error.message),
      );
    } finally {
      await project.cleanup();
    }
  });
});
