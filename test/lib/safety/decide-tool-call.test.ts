import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideToolCall } from '../../../lib/safety/decide-tool-call.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';

describe('decideToolCall: policy first, requiresApproval only raises allow to review', () => {
  const policy = new ToolPolicy({
    allow: ['read_*'],
    review: ['write_*'],
    deny: ['delete_*'],
    denyWhen: [{ tool: 'read_*', argument: 'path', matches: '/etc/*' }],
    default: 'allow',
  });
  const decide = (name: string, args: Record<string, unknown>, requiresApproval: boolean) => decideToolCall(policy, name, args, requiresApproval).decision;

  test('a deny pattern and a denyWhen rule stay deny when the tool requires approval', () => {
    assert.equal(decide('delete_file', {}, true), 'deny');
    assert.equal(decide('read_file', { path: '/etc/passwd' }, true), 'deny');
  });

  test('allow (a pattern or the default) becomes review; review stays review', () => {
    assert.equal(decide('read_file', { path: 'a' }, true), 'review');
    assert.equal(decide('other', {}, true), 'review');
    assert.equal(decide('write_file', {}, true), 'review');
    assert.deepEqual(decideToolCall(policy, 'read_file', { path: 'a' }, true), { decision: 'review', reason: 'tool "read_file" requires approval', rule: 'requiresApproval' });
  });

  test('without requiresApproval the policy decides alone; without a policy, allow (or review when required)', () => {
    assert.deepEqual(['read_file', 'write_file', 'delete_file'].map((name) => decide(name, { path: 'a' }, false)), ['allow', 'review', 'deny']);
    assert.deepEqual(decideToolCall(undefined, 'x', {}, false), { decision: 'allow', reason: 'no tool policy' });
    assert.equal(decideToolCall(undefined, 'x', {}, true).decision, 'review');
  });
});
