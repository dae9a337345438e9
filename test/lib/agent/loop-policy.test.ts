import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';

function deleteTool(deleted: string[]): Tool {
  return tool({
    name: 'delete_file',
    description: 'Delete a file from disk',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  });
}

const deleteCall = (path = 'a.txt') => ({ toolName: 'delete_file', parameters: { path } });

describe('agent loop: policy and approvals', () => {
  test('deny: the tool is skipped and the denial is sent to the model', async () => {
    const deleted: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [deleteTool(deleted)], toolPolicy: new ToolPolicy({ deny: ['delete_*'] }), observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(deleted, []);
    const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(fed.content, /denied by policy/);
    assert.equal(fed.isError, true);
    assert.equal(log.of('policy-decision')[0]!.decision, 'deny');
    assert.equal(log.of('tool-start').length, 0);
  });

  test('denyWhen: argument-level conditions deny', async () => {
    const deleted: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall('/etc/passwd'), deleteCall('tmp/x')] }, 'ok'] });
    const policy = new ToolPolicy({ allow: ['*'], denyWhen: [{ tool: 'delete_file', argument: 'path', matches: '/etc/*' }] });
    const agent = new Agent({ provider, tools: [deleteTool(deleted)], toolPolicy: policy, runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(deleted, ['tmp/x']);
  });

  test('review + confirmAction true runs the tool; false sends the denial', async () => {
    for (const answer of [true, false]) {
      const deleted: string[] = [];
      const asked: unknown[] = [];
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
      const agent = new Agent({
        provider,
        tools: [deleteTool(deleted)],
        toolPolicy: new ToolPolicy({ review: ['delete_*'] }),
        confirmAction: async (name, args, reason) => {
          asked.push([name, args, typeof reason]);
          return answer;
        },
        runtime: testRuntime(),
      });
      await agent.run('go');
      assert.deepEqual(asked, [['delete_file', { path: 'a.txt' }, 'string']]);
      assert.deepEqual(deleted, answer ? ['a.txt'] : []);
      const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
      if (!answer) assert.match(fed.content, /denied/);
    }
  });

  test('review times out after approvalTimeout and denies', async () => {
    const deleted: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({
      provider,
      tools: [deleteTool(deleted)],
      toolPolicy: new ToolPolicy({ review: ['*'] }),
      approvalTimeout: 0.05,
      confirmAction: () => new Promise<boolean>(() => undefined),
      observers: [log.observer],
      runtime: testRuntime(),
    });
    const started = Date.now();
    await agent.run('go');
    assert.ok(Date.now() - started < 2000);
    assert.deepEqual(deleted, []);
    assert.equal(log.of('approval-response')[0]!.outcome, 'timeout');
    assert.match(provider.requests[1]!.messages.find((m) => m.role === 'tool')!.content, /not approved within/);
  });

  test('the default approval timeout is 60 s', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [deleteTool([])], toolPolicy: new ToolPolicy({ review: ['*'] }), confirmAction: () => true, observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.equal(log.of('approval-request')[0]!.timeoutMs, 60_000);
  });

  test('requiresApproval tools are always reviewed, even when the policy allows them', async () => {
    const deleted: string[] = [];
    const guarded = deleteTool(deleted).withOptions({ requiresApproval: true });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [guarded], toolPolicy: new ToolPolicy({ allow: ['*'] }), observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.equal(log.of('policy-decision')[0]!.decision, 'review');
    assert.deepEqual(deleted, [], 'no approver configured → denied');
  });

  test('deny wins over requiresApproval: a denied call never reaches confirmAction and the model gets the denial', async () => {
    const deleted: string[] = [];
    const asked: string[] = [];
    const guarded = deleteTool(deleted).withOptions({ requiresApproval: true });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({
      provider,
      tools: [guarded],
      toolPolicy: new ToolPolicy({ deny: ['delete_*'] }),
      confirmAction: (name) => {
        asked.push(name);
        return true;
      },
      observers: [log.observer],
      runtime: testRuntime(),
    });
    await agent.run('go');
    assert.deepEqual(asked, [], 'confirmAction is never asked about a denied call');
    assert.deepEqual(deleted, []);
    assert.equal(log.of('policy-decision')[0]!.decision, 'deny');
    assert.equal(log.of('approval-request').length, 0);
    const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(fed.content, /denied by policy \(tool "delete_file" matches deny pattern "delete_\*"\)/);
    assert.equal(fed.isError, true);
  });

  test('denyWhen wins over requiresApproval, even with a run approver that approves everything', async () => {
    const deleted: string[] = [];
    const asked: string[] = [];
    const guarded = deleteTool(deleted).withOptions({ requiresApproval: true });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall('/etc/passwd'), deleteCall('tmp/x')] }, 'ok'] });
    const policy = new ToolPolicy({ allow: ['*'], denyWhen: [{ tool: 'delete_file', argument: 'path', matches: '/etc/*' }] });
    const agent = new Agent({ provider, tools: [guarded], toolPolicy: policy, runtime: testRuntime() });
    await agent.run('go', {
      approve: (request) => {
        asked.push(String(request.args.path));
        return true;
      },
    });
    assert.deepEqual(asked, ['tmp/x'], 'only the allowed call is raised to review');
    assert.deepEqual(deleted, ['tmp/x']);
    const fed = provider.requests[1]!.messages.filter((m) => m.role === 'tool');
    assert.match(fed[0]!.content, /denied by policy/);
  });

  test('requiresApproval keeps a policy review a review, with the policy reason', async () => {
    const deleted: string[] = [];
    const reasons: string[] = [];
    const guarded = deleteTool(deleted).withOptions({ requiresApproval: true });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const agent = new Agent({
      provider,
      tools: [guarded],
      toolPolicy: new ToolPolicy({ review: ['delete_*'] }),
      confirmAction: (_name, _args, reason) => {
        reasons.push(reason);
        return true;
      },
      runtime: testRuntime(),
    });
    await agent.run('go');
    assert.deepEqual(reasons, ['tool "delete_file" matches review pattern "delete_*"']);
    assert.deepEqual(deleted, ['a.txt']);
  });

  test('without a policy every tool is allowed', async () => {
    const deleted: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const agent = new Agent({ provider, tools: [deleteTool(deleted)], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(deleted, ['a.txt']);
  });

  test('approve handler: deny with feedback reaches the model; allow for session is remembered', async () => {
    const deleted: string[] = [];
    const provider = new ScriptedProvider({
      replies: [{ toolCalls: [deleteCall('x')] }, { toolCalls: [deleteCall('y')] }, { toolCalls: [deleteCall('z')] }, 'done'],
    });
    const agent = new Agent({ provider, tools: [deleteTool(deleted)], toolPolicy: new ToolPolicy({ review: ['*'] }), runtime: testRuntime() });
    const answers = [
      { approved: false, feedback: 'use the trash instead' },
      { approved: true, scope: 'session' as const },
    ];
    let asked = 0;
    await agent.run('go', { approve: () => answers[asked++] ?? false });
    assert.equal(asked, 2, 'the third call was approved for the session without asking');
    assert.deepEqual(deleted, ['y', 'z']);
    const denial = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(denial.content, /use the trash instead/);
    agent.reset();
  });

  test('policy evaluation order: deny beats review beats allow; default review', () => {
    const policy = new ToolPolicy({ allow: ['*'], review: ['send_*'], deny: ['send_money'] });
    assert.equal(policy.evaluate('send_money', {}).decision, 'deny');
    assert.equal(policy.evaluate('send_email', {}).decision, 'review');
    assert.equal(policy.evaluate('read', {}).decision, 'allow');
    assert.equal(new ToolPolicy({ allow: ['read_*'] }).evaluate('write', {}).decision, 'review');
  });

  test('weather tool unaffected by a deny on another tool', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall(), { toolName: 'get_weather', parameters: { city: 'Ulm' } }] }, 'ok'] });
    const agent = new Agent({ provider, tools: [deleteTool([]), weatherTool(cities)], toolPolicy: new ToolPolicy({ deny: ['delete_file'], allow: ['get_*'] }), runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(cities, ['Ulm']);
  });
});

describe('policy sees the arguments the tool runs with', () => {
  const shell = (ran: unknown[]) =>
    tool({ name: 'run_shell', description: 'Run a shell command', parameters: z.object({ command: z.string().trim() }), execute: ({ command }) => (ran.push(command), 'ok') });
  const rows = (ran: unknown[]) =>
    tool({
      name: 'delete_rows',
      description: 'Delete rows from a table',
      parameters: z.object({ table: z.string(), limit: z.number().optional(), all: z.boolean().default(true) }),
      execute: (args) => (ran.push(args), 'ok'),
    });
  const policy = new ToolPolicy({
    allow: ['*'],
    denyWhen: [
      { tool: 'run_shell', argument: 'command', matches: 'rm *' },
      { tool: 'delete_rows', argument: 'limit', equals: 0 },
      { tool: 'delete_rows', argument: 'all', equals: true },
    ],
  });

  test('transforms, coercion and defaults cannot slip past denyWhen', async () => {
    const ran: unknown[] = [];
    const provider = new ScriptedProvider({
      replies: [
        {
          toolCalls: [
            { toolName: 'run_shell', parameters: { command: '  rm -rf /' } },
            { toolName: 'delete_rows', parameters: { table: 'users', limit: '0', all: false } },
            { toolName: 'delete_rows', parameters: { table: 'users' } },
            { toolName: 'delete_rows', parameters: { table: 'logs', limit: '5', all: false } },
          ],
        },
        'ok',
      ],
    });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [shell(ran), rows(ran)], toolPolicy: policy, observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(ran, [{ table: 'logs', limit: 5, all: false }]);
    assert.deepEqual(log.of('policy-decision').map((e) => e.decision), ['deny', 'deny', 'deny', 'allow']);
    assert.deepEqual(log.of('policy-decision')[0]!.args, { command: 'rm -rf /' }, 'events carry the validated arguments');
  });

  test('approvers are shown the validated arguments', async () => {
    const seen: unknown[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'delete_rows', parameters: { table: 't', limit: '3' } }] }, 'ok'] });
    const agent = new Agent({ provider, tools: [rows([])], toolPolicy: new ToolPolicy({ review: ['*'] }), runtime: testRuntime() });
    await agent.run('go', { approve: (request) => (seen.push(request.args), true) });
    assert.deepEqual(seen, [{ table: 't', limit: 3, all: true }]);
  });
});

describe('approval timeouts', () => {
  test('a real timer denies after approvalTimeout', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
    const agent = new Agent({ provider, tools: [deleteTool([])], toolPolicy: new ToolPolicy({ review: ['*'] }), approvalTimeout: 0.08, runtime: testRuntime() });
    const started = Date.now();
    await agent.run('go', { approve: () => new Promise<boolean>(() => undefined) });
    const waited = Date.now() - started;
    assert.ok(waited >= 70 && waited < 2_000, `waited ${waited} ms`);
  });

  test('approvalTimeout 0 or Infinity waits for the approver (no instant denial)', async () => {
    for (const approvalTimeout of [0, Infinity, 60 * 60 * 24 * 40]) {
      const deleted: string[] = [];
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [deleteCall()] }, 'ok'] });
      const agent = new Agent({ provider, tools: [deleteTool(deleted)], toolPolicy: new ToolPolicy({ review: ['*'] }), approvalTimeout, runtime: testRuntime() });
      await agent.run('go', { approve: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 30)) });
      assert.deepEqual(deleted, ['a.txt'], `approvalTimeout ${approvalTimeout}`);
    }
  });
});
