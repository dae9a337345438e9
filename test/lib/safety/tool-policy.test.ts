import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { PolicyDecision, ToolPolicy } from '../../../lib/safety/index.js';

describe('ToolPolicy.evaluate', () => {
  test('PolicyDecision values are the spec strings', () => {
    assert.deepEqual({ ...PolicyDecision }, { ALLOW: 'allow', REVIEW: 'review', DENY: 'deny' });
  });

  test('order: deny, then review, then allow, then the default (review)', () => {
    const policy = new ToolPolicy({ allow: ['*'], review: ['send_*'], deny: ['send_money'] });
    assert.equal(policy.evaluate('send_money', {}).decision, 'deny');
    assert.equal(policy.evaluate('send_email', {}).decision, 'review');
    assert.equal(policy.evaluate('read_file', {}).decision, 'allow');
    const narrow = new ToolPolicy({ allow: ['read_*'] });
    assert.equal(narrow.evaluate('write_file', {}).decision, 'review');
    assert.equal(narrow.evaluate('write_file', {}).rule, undefined);
  });

  test('review beats allow even when allow is listed first and is more specific', () => {
    const policy = new ToolPolicy({ allow: ['send_email'], review: ['send_*'] });
    assert.equal(policy.evaluate('send_email').decision, 'review');
  });

  test('an empty policy reviews everything; a configured default applies when nothing matches', () => {
    assert.equal(new ToolPolicy().evaluate('anything').decision, 'review');
    const locked = new ToolPolicy({ allow: ['read_*'], default: 'deny' });
    assert.equal(locked.evaluate('read_file').decision, 'allow');
    const result = locked.evaluate('write_file');
    assert.equal(result.decision, 'deny');
    assert.match(result.reason, /matches no allow, review or deny pattern; the default is deny/);
  });

  test('reasons are readable and name the rule', () => {
    const policy = new ToolPolicy({ deny: ['delete_*'], review: ['write_*'], allow: ['read_*'] });
    assert.deepEqual(policy.evaluate('delete_file', { path: 'a' }), {
      decision: 'deny',
      reason: 'tool "delete_file" matches deny pattern "delete_*"',
      rule: 'deny:delete_*',
    });
    assert.deepEqual(policy.evaluate('write_file'), {
      decision: 'review',
      reason: 'tool "write_file" matches review pattern "write_*"',
      rule: 'review:write_*',
    });
    assert.equal(policy.evaluate('read_file').reason, 'tool "read_file" matches allow pattern "read_*"');
  });

  test('patterns are case-sensitive full matches', () => {
    const policy = new ToolPolicy({ deny: ['delete'], allow: ['*'] });
    assert.equal(policy.evaluate('delete').decision, 'deny');
    assert.equal(policy.evaluate('Delete').decision, 'allow');
    assert.equal(policy.evaluate('delete_file').decision, 'allow');
  });

  test('an invalid pattern is a ConfigurationError at construction', () => {
    assert.throws(() => new ToolPolicy({ deny: ['delete_[x'] }), (error: unknown) => {
      assert.ok(ConfigurationError.isInstance(error));
      assert.equal(error.key, 'deny[0]');
      assert.match(error.message, /unclosed "\["/);
      return true;
    });
    assert.throws(() => new ToolPolicy({ allow: [''] }), /non-empty glob/);
  });
});

describe('ToolPolicy denyWhen', () => {
  const shell = new ToolPolicy({
    allow: ['*'],
    denyWhen: [
      { tool: 'run_shell', argument: 'command', matches: ['rm *', 'sudo *'] },
      { tool: 'http_*', argument: 'request.url', regex: '^http://' , reason: 'plain HTTP is not allowed' },
      { tool: 'set_mode', argument: 'mode', equals: { level: 'unsafe' } },
      { tool: 'copy_files', argument: 'targets', matches: '/etc/*' },
    ],
  });

  test('a glob over an argument denies matching calls only', () => {
    const denied = shell.evaluate('run_shell', { command: 'rm -rf /' });
    assert.equal(denied.decision, 'deny');
    assert.equal(denied.rule, 'denyWhen[0]');
    assert.equal(denied.reason, 'argument "command" of tool "run_shell" matches "rm *" or "sudo *"');
    assert.equal(shell.evaluate('run_shell', { command: 'sudo reboot' }).decision, 'deny');
    assert.equal(shell.evaluate('run_shell', { command: 'ls -la' }).decision, 'allow');
    assert.equal(shell.evaluate('run_shell', { command: 'echo rm x' }).decision, 'allow', 'anchored');
    assert.equal(shell.evaluate('run_other', { command: 'rm -rf /' }).decision, 'allow', 'tool glob');
  });

  test('dotted paths reach nested arguments; regex searches; custom reasons are used', () => {
    const denied = shell.evaluate('http_get', { request: { url: 'http://example.com' } });
    assert.deepEqual(denied, { decision: 'deny', reason: 'plain HTTP is not allowed', rule: 'denyWhen[1]' });
    assert.equal(shell.evaluate('http_get', { request: { url: 'https://example.com' } }).decision, 'allow');
  });

  test('equals compares deeply', () => {
    assert.equal(shell.evaluate('set_mode', { mode: { level: 'unsafe' } }).decision, 'deny');
    assert.equal(shell.evaluate('set_mode', { mode: { level: 'safe' } }).decision, 'allow');
    assert.match(shell.evaluate('set_mode', { mode: { level: 'unsafe' } }).reason, /equals \{"level":"unsafe"\}/);
  });

  test('an array argument is denied when any element matches', () => {
    assert.equal(shell.evaluate('copy_files', { targets: ['tmp/a', '/etc/passwd'] }).decision, 'deny');
    assert.equal(shell.evaluate('copy_files', { targets: ['tmp/a', 'tmp/b'] }).decision, 'allow');
  });

  test('a missing argument or a non-text value never fires a glob rule', () => {
    assert.equal(shell.evaluate('run_shell', {}).decision, 'allow');
    assert.equal(shell.evaluate('run_shell', { command: { nested: 'rm -rf' } }).decision, 'allow');
    assert.equal(shell.evaluate('http_get', { request: 'http://x' }).decision, 'allow');
  });

  test('numbers are tested as text; numeric path segments index arrays', () => {
    const policy = new ToolPolicy({
      allow: ['*'],
      denyWhen: [
        { tool: 'transfer', argument: 'amount', matches: '[0-9][0-9][0-9][0-9]*' },
        { tool: 'batch', argument: 'items.1.op', equals: 'drop' },
      ],
    });
    assert.equal(policy.evaluate('transfer', { amount: 25000 }).decision, 'deny');
    assert.equal(policy.evaluate('transfer', { amount: 25 }).decision, 'allow');
    assert.equal(policy.evaluate('batch', { items: [{ op: 'keep' }, { op: 'drop' }] }).decision, 'deny');
    assert.equal(policy.evaluate('batch', { items: [{ op: 'drop' }] }).decision, 'allow');
  });

  test('an argument whose name contains a dot is found as-is first', () => {
    const policy = new ToolPolicy({ allow: ['*'], denyWhen: [{ tool: '*', argument: 'file.name', matches: '*.env' }] });
    assert.equal(policy.evaluate('x', { 'file.name': 'prod.env' }).decision, 'deny');
    assert.equal(policy.evaluate('x', { file: { name: 'prod.env' } }).decision, 'deny');
  });

  test('deny patterns are checked before denyWhen, denyWhen before review', () => {
    const policy = new ToolPolicy({
      deny: ['run_*'],
      review: ['exec'],
      denyWhen: [{ tool: '*', argument: 'cmd', matches: 'rm *' }],
    });
    assert.equal(policy.evaluate('run_shell', { cmd: 'rm x' }).rule, 'deny:run_*');
    assert.equal(policy.evaluate('exec', { cmd: 'rm x' }).rule, 'denyWhen[0]');
    assert.equal(policy.evaluate('exec', { cmd: 'ls' }).decision, 'review');
  });

  test('a rule needs exactly one condition and valid patterns', () => {
    assert.throws(() => new ToolPolicy({ denyWhen: [{ tool: 'x', argument: 'a' }] }), /has no condition/);
    assert.throws(
      () => new ToolPolicy({ denyWhen: [{ tool: 'x', argument: 'a', matches: '*', regex: 'y' }] }),
      /has matches and regex: give exactly one/,
    );
    assert.throws(() => new ToolPolicy({ denyWhen: [{ tool: 'x', argument: 'a', regex: '(' }] }), (error: unknown) => {
      assert.ok(ConfigurationError.isInstance(error));
      assert.equal(error.key, 'denyWhen[0].regex');
      return true;
    });
    assert.throws(() => new ToolPolicy({ denyWhen: [{ tool: 'x', argument: '', equals: 1 }] }), /argument must be a non-empty/);
    assert.throws(() => new ToolPolicy({ denyWhen: [{ tool: 'x', argument: 'a', matches: [] }] }), /at least one pattern/);
  });
});

describe('ToolPolicy.toJSON', () => {
  test('round-trips through fromDict and is a defensive copy', () => {
    const options = {
      allow: ['read_*'],
      review: ['write_*'],
      deny: ['delete_*'],
      denyWhen: [{ tool: 'run_shell', argument: 'command', matches: 'rm *' }],
      default: 'deny' as const,
    };
    const policy = new ToolPolicy(options);
    const json = policy.toJSON();
    assert.deepEqual(json, options);
    json.allow.push('*');
    assert.deepEqual(policy.allow, ['read_*']);
    options.allow.push('*');
    assert.equal(policy.evaluate('anything').decision, 'deny', 'the caller mutating its options changes nothing');
    assert.deepEqual(ToolPolicy.fromDict(JSON.parse(JSON.stringify(policy))).toJSON(), policy.toJSON());
  });
});
