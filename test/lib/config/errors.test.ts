import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAgentConfig } from '../../../lib/config/parse-agent-config.js';
import { ConfigFileError, formatConfigIssue } from '../../../lib/core/errors/config-file-error.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { brief, issuesOf } from './project.js';

describe('agent YAML: errors', () => {
  test('an unknown key: exact position, did-you-mean, formatted message', () => {
    const text = ['provider: openai', 'model: gpt-4o-mini', 'max_iteration: 3', ''].join('\n');
    try {
      parseAgentConfig(text, { source: 'agent.yaml' });
      assert.fail('expected an error');
    } catch (error) {
      assert.ok(ConfigFileError.isInstance(error));
      assert.ok(ConfigurationError.isInstance(error), 'a ConfigFileError is a ConfigurationError');
      assert.equal(error.name, 'ConfigFileError');
      assert.equal(error.source, 'agent.yaml');
      assert.deepEqual(error.issues, [{ path: 'max_iteration', line: 3, col: 1, message: 'unknown key "max_iteration" under the top level', suggestion: 'max_iterations' }]);
      assert.equal(error.message, 'agent.yaml:3:1: unknown key "max_iteration" under the top level — did you mean "max_iterations"?');
      assert.equal(error.key, 'max_iteration');
      assert.equal(error.suggestion, 'max_iterations');
    }
  });

  test('nested unknown keys and wrong types point at the key or the value', () => {
    const text = ['retry:', '  max_retrys: 2', 'budget:', '  max_cost_usd: "cheap"', 'temperature: 5', 'verbose: yes please', ''].join('\n');
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig(text))), [
      '2:3 unknown key "max_retrys" under "retry" → max_retries',
      '4:17 "budget.max_cost_usd" must be a number ≥ 0; got the string "cheap"',
      '5:14 "temperature" must be a number between 0 and 2; got number 5',
      '6:10 "verbose" must be true or false; got the string "yes please"',
    ]);
  });

  test('several problems are reported at once, in document order', () => {
    const text = [
      'name: demo',
      'provider: opnai', // 2:11
      'max_tokens: 0', // 3:13
      'reasoning_strategy: reactive', // 4:21
      'tool_config:',
      '  paralel: true', // 6:3
      'max_cost_usd: 1', // 7:1 (a flat spec name)
      'maxIterations: 2', // 8:1 (camelCase)
      '',
    ].join('\n');
    const issues = issuesOf(() => parseAgentConfig(text));
    assert.deepEqual(brief(issues), [
      '2:11 unknown provider "opnai" (known: openai, anthropic, gemini, ollama, openai-compatible, azure) → openai',
      '3:13 "max_tokens" must be an integer ≥ 1; got number 0',
      '4:21 "reasoning_strategy" must be one of react, cot, plan_then_act; got "reactive" → react',
      '6:3 unknown key "paralel" under "tool_config" → parallel',
      '7:1 unknown key "max_cost_usd" under the top level → budget.max_cost_usd',
      '8:1 unknown key "maxIterations" under the top level → max_iterations',
    ]);
  });

  test('an unknown key without a close match lists the known keys', () => {
    const [issue] = issuesOf(() => parseAgentConfig('retry:\n  zzz: 1\n'));
    assert.equal(issue?.suggestion, undefined);
    assert.match(issue?.hint ?? '', /known keys: max_retries, base_delay_ms/);
  });

  test('malformed YAML is an error with its position', () => {
    const issues = issuesOf(() => parseAgentConfig('provider: openai\ntools: [a, b\nmodel: x\n', { source: 'bad.yaml' }));
    assert.ok(issues.length >= 1);
    assert.match(issues[0]?.message ?? '', /^invalid YAML: /);
    assert.equal(issues[0]?.line, 3);
  });

  test('duplicate keys are YAML errors', () => {
    const [issue] = issuesOf(() => parseAgentConfig('model: a\nmodel: b\n'));
    assert.equal(issue?.line, 2);
    assert.equal(issue?.col, 1);
    assert.match(issue?.message ?? '', /unique/i);
  });

  test('the document must be a mapping; wrong group shapes are reported', () => {
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('- a\n- b\n'))), ['1:1 the document must be a mapping of keys; got a list']);
    assert.deepEqual(brief(issuesOf(() => parseAgentConfig('retry: 3\ntools: ./x.ts\n'))), [
      '1:8 "retry" must be a mapping of keys; got number 3',
      '2:8 "tools" must be a list; got the string "./x.ts" (write tools: [./x.ts])',
    ]);
  });

  test('strings where a string is expected: numbers are refused with a hint to quote', () => {
    const [issue] = issuesOf(() => parseAgentConfig('model: 4\n'));
    assert.equal(issue?.message, '"model" must be a string; got number 4');
    assert.equal(issue?.hint, 'quote the value');
  });

  test('an inline policy reports each bad key at its position', () => {
    const text = ['policy:', '  allow: [read_*]', '  deny: delete_*', '  defualt: deny', '  deny_when:', '    - { tool: x, argument: y, regx: "a" }', ''].join('\n');
    const issues = issuesOf(() => parseAgentConfig(text));
    assert.deepEqual(issues.map((i) => [i.path, i.line, i.col, i.suggestion]), [
      ['policy.deny', 3, 9, undefined],
      ['policy.defualt', 4, 3, 'default'],
      ['policy.deny_when[0].regx', 6, 31, 'regex'],
    ]);
    assert.match(issues[0]?.message ?? '', /"deny" must be a list of glob patterns/);
  });

  test('formatConfigIssue renders suggestion and hint', () => {
    assert.equal(formatConfigIssue('a.yaml', { path: 'x', line: 1, col: 2, message: 'bad', suggestion: 'y', hint: 'do z' }), 'a.yaml:1:2: bad — did you mean "y"? (do z)');
  });
});
