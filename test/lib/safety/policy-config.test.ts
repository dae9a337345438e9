import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';

/** Asserts `fn` throws a ConfigurationError whose message matches every pattern; returns it. */
function configError(fn: () => unknown, ...patterns: RegExp[]): ConfigurationError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(ConfigurationError.isInstance(caught), `expected a ConfigurationError, got ${String(caught)}`);
  for (const pattern of patterns) assert.match(caught.message, pattern);
  return caught;
}

describe('ToolPolicy.fromDict', () => {
  test('accepts snake_case and camelCase keys', () => {
    const rule = { tool: 'run_shell', argument: 'command', matches: 'rm *' };
    const snake = ToolPolicy.fromDict({ allow: ['*'], deny_when: [rule], default: 'deny' });
    const camel = ToolPolicy.fromDict({ allow: ['*'], denyWhen: [rule], default: 'deny' });
    for (const policy of [snake, camel]) {
      assert.equal(policy.evaluate('run_shell', { command: 'rm -rf /' }).decision, 'deny');
      assert.equal(policy.evaluate('run_shell', { command: 'ls' }).decision, 'allow');
      assert.equal(policy.defaultDecision, 'deny');
    }
  });

  test('an empty or missing document is the default policy', () => {
    assert.equal(ToolPolicy.fromDict({}).evaluate('x').decision, 'review');
    assert.equal(ToolPolicy.fromDict(null).evaluate('x').decision, 'review');
  });

  test('unknown keys are errors with a did-you-mean', () => {
    const error = configError(() => ToolPolicy.fromDict({ alow: ['*'] }), /unknown key "alow" in tool policy/, /did you mean "allow"\?/);
    assert.equal(error.key, 'alow');
    assert.equal(error.suggestion, 'allow');
    configError(() => ToolPolicy.fromDict({ 'deny-when': [] }), /did you mean "deny_when"/);
    configError(() => ToolPolicy.fromDict({ zzzzzz: 1 }), /unknown key "zzzzzz" in tool policy; known keys: allow, review, deny, deny_when, denyWhen, default$/);
    const nested = configError(
      () => ToolPolicy.fromDict({ deny_when: [{ tool: 'x', argumnet: 'a', matches: '*' }] }),
      /unknown key "argumnet" in "deny_when\[0\]" \(did you mean "argument"\?\)/,
    );
    assert.equal(nested.key, 'deny_when[0].argumnet');
  });

  test('wrong types are clear errors', () => {
    configError(() => ToolPolicy.fromDict('allow everything'), /must be a mapping/);
    configError(() => ToolPolicy.fromDict([]), /must be a mapping.*got a list/);
    configError(() => ToolPolicy.fromDict({ allow: '*' }), /"allow" must be a list of glob patterns; got the string "\*" \(write allow: \["\*"\]\)/);
    configError(() => ToolPolicy.fromDict({ deny: ['ok', 3] }), /"deny\[1\]" must be a non-empty glob pattern; got number 3/);
    configError(() => ToolPolicy.fromDict({ deny_when: { tool: 'x' } }), /"deny_when" must be a list of rules/);
    configError(() => ToolPolicy.fromDict({ deny_when: ['x'] }), /"deny_when\[0\]" must be a mapping/);
    configError(() => ToolPolicy.fromDict({ deny_when: [{ argument: 'a', matches: '*' }] }), /"deny_when\[0\]" is missing "tool"/);
    configError(() => ToolPolicy.fromDict({ deny_when: [{ tool: 'x', argument: 1, matches: '*' }] }), /"deny_when\[0\].argument" must be a string/);
    configError(() => ToolPolicy.fromDict({ deny_when: [{ tool: 'x', argument: 'a', matches: 5 }] }), /"deny_when\[0\].matches" must be a glob or a list/);
    configError(() => ToolPolicy.fromDict({ deny_when: [{ tool: 'x', argument: 'a', matches: ['a', 2] }] }), /matches\[1\]" must be a string/);
    configError(() => ToolPolicy.fromDict({ deny_when: [{ tool: 'x', argument: 'a', regex: 5 }] }), /regex" must be a string/);
    const bad = configError(() => ToolPolicy.fromDict({ default: 'reveiw' }), /"default" must be one of deny, review, allow; got the string "reveiw" \(did you mean "review"\?\)/);
    assert.equal(bad.suggestion, 'review');
  });

  test('semantic problems use the key as written', () => {
    const error = configError(() => ToolPolicy.fromDict({ deny_when: [{ tool: 'x', argument: 'a', regex: '(' }] }), /deny_when\[0\]\.regex is not a valid regular expression/);
    assert.equal(error.key, 'deny_when[0].regex');
    configError(() => ToolPolicy.fromDict({ review: ['ok', 'bad[' ] }), /review\[1\]: invalid glob pattern "bad\["/);
    configError(() => ToolPolicy.fromDict({ deny_when: [], denyWhen: [] }), /both "deny_when" and "denyWhen"/);
  });
});

describe('ToolPolicy.fromYaml', () => {
  const yaml = [
    'allow: ["read_*", search]',
    'review:',
    '  - write_*',
    'deny: [delete_*]',
    'deny_when:',
    '  - tool: run_shell',
    '    argument: command',
    '    matches: ["rm *", "sudo *"]',
    '    reason: destructive shell command',
  ].join('\n');

  test('parses the spec shape', () => {
    const policy = ToolPolicy.fromYaml(yaml);
    assert.equal(policy.evaluate('read_file').decision, 'allow');
    assert.equal(policy.evaluate('write_file').decision, 'review');
    assert.equal(policy.evaluate('delete_file').decision, 'deny');
    assert.deepEqual(policy.evaluate('run_shell', { command: 'sudo rm' }), {
      decision: 'deny',
      reason: 'destructive shell command',
      rule: 'denyWhen[0]',
    });
    assert.equal(policy.evaluate('other').decision, 'review');
  });

  test('an empty document is the default policy', () => {
    assert.equal(ToolPolicy.fromYaml('# nothing yet\n').evaluate('x').decision, 'review');
  });

  test('YAML syntax errors carry line:col', () => {
    configError(() => ToolPolicy.fromYaml('allow: [read_*\nreview: x\n'), /^invalid tool policy YAML at line 2:1: Flow sequence/);
    configError(() => ToolPolicy.fromYaml('allow: [a]\n  review: [b]\n', { source: 'policy.yaml' }), /^invalid tool policy YAML at policy\.yaml:2:3: bad indentation: All mapping items/);
    configError(() => ToolPolicy.fromYaml('deny: "x\n'), /at line 2:1: Missing closing "quote/);
    configError(() => ToolPolicy.fromYaml('allow: [a]\nallow: [b]\n'), /at line 2:1: .*[Uu]nique/);
  });

  test('validation errors point at the offending key or value', () => {
    configError(() => ToolPolicy.fromYaml('allow: ["*"]\nreveiw: [x]\n', { source: 'p.yaml' }), /unknown key "reveiw".*did you mean "review".*\(at p\.yaml:2:1\)/);
    configError(() => ToolPolicy.fromYaml('deny:\n  - ok\n  - 7\n'), /"deny\[1\]" must be a non-empty glob pattern; got number 7 \(at line 3:5\)/);
    configError(
      () => ToolPolicy.fromYaml('deny_when:\n  - tool: run_shell\n    argument: command\n    regex: "("\n'),
      /regex is not a valid regular expression.*\(at line 4:12\)/,
    );
  });

  test('fromYamlFile reads a file and names it in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlib-policy-'));
    try {
      const good = join(dir, 'policy.yaml');
      await writeFile(good, yaml);
      assert.equal((await ToolPolicy.fromYamlFile(good)).evaluate('delete_x').decision, 'deny');
      const bad = join(dir, 'bad.yaml');
      await writeFile(bad, 'allow: ["*"]\ndefault: alow\n');
      await assert.rejects(ToolPolicy.fromYamlFile(bad), (error: unknown) => {
        assert.ok(ConfigurationError.isInstance(error));
        assert.match(error.message, /got the string "alow" \(did you mean "allow"\?\) \(at .*bad\.yaml:2:10\)/);
        return true;
      });
      await assert.rejects(ToolPolicy.fromYamlFile(join(dir, 'missing.yaml')), /cannot read tool policy file ".*missing\.yaml": ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
