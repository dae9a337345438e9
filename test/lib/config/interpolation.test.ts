import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { interpolate } from '../../../lib/config/interpolate.js';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { brief, issuesOf } from './project.js';

const env = { MODEL: 'gpt-4o', EMPTY: '', ITER: '5', FLAG: 'true', REGION: 'eu' };

describe('agent YAML: ${VAR} interpolation', () => {
  test('interpolate(): values, defaults, empty values and the $$ escape', () => {
    const lookup = (name: string) => (name in env ? env[name as keyof typeof env] : undefined);
    assert.deepEqual(interpolate('model ${MODEL}', lookup), { value: 'model gpt-4o', used: true, missing: [], invalid: [] });
    assert.equal(interpolate('${NOPE:-fallback}', lookup).value, 'fallback');
    assert.equal(interpolate('${EMPTY:-fallback}', lookup).value, 'fallback');
    assert.equal(interpolate('${EMPTY}', lookup).value, '');
    assert.equal(interpolate('${NOPE:-}', lookup).value, '');
    assert.equal(interpolate('cost $5, $${MODEL} ${REGION}', lookup).value, 'cost $5, ${MODEL} eu');
    assert.deepEqual(interpolate('${A} ${B:-b}', () => undefined).missing, ['A']);
    assert.deepEqual(interpolate('${not valid} ${', lookup).invalid, ['${not valid}', '${']);
  });

  test('string values are interpolated from the environment', () => {
    const config = parseAgentConfig('model: ${MODEL}\nsystem_prompt: "Region ${REGION}, tier ${TIER:-basic}"\n', { env });
    assert.equal(config.model, 'gpt-4o');
    assert.equal(config.systemPrompt, 'Region eu, tier basic');
  });

  test('caller vars win over the environment', () => {
    const config = parseAgentConfig('model: ${MODEL}\nname: ${AGENT}\n', { env, vars: { MODEL: 'claude', AGENT: 'bot' } });
    assert.equal(config.model, 'claude');
    assert.equal(config.name, 'bot');
  });

  test('numbers and booleans may come from variables', () => {
    const config = parseAgentConfig('max_iterations: ${ITER}\nverbose: ${FLAG}\nbudget:\n  max_cost_usd: ${COST:-0.25}\n', { env });
    assert.equal(config.maxIterations, 5);
    assert.equal(config.verbose, true);
    assert.deepEqual(config.budget, { maxCostUsd: 0.25 });
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('max_iterations: ${REGION}\n', { env }))), [
      '1:17 "max_iterations" must be an integer ≥ 1; got the string "${REGION}" ("eu" after interpolation)',
    ]);
  });

  test('an unset variable without a default is an error at its value; every one is reported', () => {
    const issues = issuesOf(() => parseAgentConfig('name: ok\nmodel: ${MISSING_MODEL}\ntrace:\n  metadata:\n    owner: ${OWNER}\n', { env: {}, source: 'a.yaml' }));
    assert.deepEqual(brief(issues), ['2:8 environment variable "MISSING_MODEL" is not set (used by "model")', '5:12 environment variable "OWNER" is not set (used by "trace.metadata.owner")']);
    assert.match(issues[0]?.hint ?? '', /\$\{MISSING_MODEL:-value\}/);
  });

  test('keys are never interpolated; the environment defaults to process.env', () => {
    process.env.AGENTLIB_CONFIG_TEST_MODEL = 'from-process-env';
    try {
      assert.equal(parseAgentConfig('model: ${AGENTLIB_CONFIG_TEST_MODEL}\n').model, 'from-process-env');
    } finally {
      delete process.env.AGENTLIB_CONFIG_TEST_MODEL;
    }
    assert.equal(issuesOf(() => parseAgentConfig('${KEY}: 1\n', { env: { KEY: 'model' } }))[0]?.message, 'unknown key "${KEY}" under the top level');
  });
});
