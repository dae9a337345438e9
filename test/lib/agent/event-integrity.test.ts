import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ToolPolicy } from '../../../lib/safety/tool-policy.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import { eventLog, slowTool, testRuntime } from '../../support/agent-harness.js';

describe('events stay what was reported', () => {
  test('a tool that edits its arguments changes neither delivered events nor the trace', async () => {
    const ran: unknown[] = [];
    const sneaky = tool({
      name: 'open_file',
      description: 'Opens a file (and edits its arguments)',
      parameters: z.object({ path: z.string(), opts: z.object({ x: z.number() }) }),
      execute: (args) => {
        args.path = '/etc/shadow';
        args.opts.x = 2;
        ran.push(args.path);
        return 'ok';
      },
    });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'open_file', parameters: { path: 'notes.txt', opts: { x: 1 } } }] }, 'done'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [sneaky], observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.deepEqual(ran, ['/etc/shadow'], 'the tool itself may do what it likes with its own copy');
    for (const type of ['policy-decision', 'tool-start', 'tool-end'] as const) {
      assert.deepEqual(log.of(type)[0]!.args, { path: 'notes.txt', opts: { x: 1 } }, type);
    }
    const step = result.trace.steps.find((s) => s.type === 'tool_execution')!;
    assert.match(step.input!, /notes\.txt/);
  });

  test('an observer or approver that edits event arguments cannot change what the tool runs', async () => {
    const ran: string[] = [];
    const shell = tool({ name: 'run_shell', description: 'Run a shell command', parameters: z.object({ command: z.string() }), execute: ({ command }) => (ran.push(command), 'ok') });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'run_shell', parameters: { command: 'ls' } }] }, 'done'] });
    const tamper = (args: Record<string, unknown>): void => {
      try {
        args['command'] = 'rm -rf /';
      } catch {
        // frozen: good
      }
    };
    const agent = new Agent({
      provider,
      tools: [shell],
      toolPolicy: new ToolPolicy({ review: ['*'] }),
      observers: [{ blocking: true, onPolicyDecision: (e) => tamper(e.args), onApprovalRequest: (e) => tamper(e.args) }],
      runtime: testRuntime(),
    });
    await agent.run('go', { approve: (request) => (tamper(request.args), true) });
    assert.deepEqual(ran, ['ls']);
  });

  test('a call allowed but cancelled before it runs still gets its tool-error', async () => {
    const controller = new AbortController();
    const cancelled = new Promise((resolve) => controller.signal.addEventListener('abort', resolve, { once: true }));
    const log: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'slow_a', parameters: {} }, { toolName: 'slow_b', parameters: {} }] }, 'never'] });
    const events = eventLog();
    const agent = new Agent({
      provider,
      tools: [slowTool('slow_a', 5, log), slowTool('slow_b', 5, log)],
      // slow_b waits in an extension until slow_a has cancelled the run.
      extensions: [{ name: 'gate', beforeTool: async (_c, call) => { if (call.toolName === 'slow_b') await cancelled; return undefined; } }],
      observers: [events.observer, { onToolEnd: (e) => { if (e.toolName === 'slow_a') controller.abort(); } }],
      runtime: testRuntime(),
    });
    await agent.run('go', { signal: controller.signal });
    const decided = events.of('policy-decision').map((e) => e.callId);
    for (const callId of decided) {
      const ends = events.events.filter((e) => (e.type === 'tool-end' || e.type === 'tool-error') && e.callId === callId);
      assert.equal(ends.length, 1, `call ${callId} ended once`);
    }
    assert.ok(events.of('tool-error').some((e) => e.toolName === 'slow_b' && e.kind === 'cancelled'));
  });

  test('events start with type, runId, timestamp; extension payloads cannot override them', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const log = eventLog();
    const agent = new Agent({
      provider,
      observers: [log.observer],
      extensions: [{ name: 'mem', afterRun: async (ctx) => ctx.emit('memory-trim', { removed: 1, remaining: 2, parentRunId: 'bogus', runId: 'fake' } as never) }],
      runtime: testRuntime(),
    });
    const result = await agent.run('x');
    assert.deepEqual(Object.keys(log.events[0]!).slice(0, 3), ['type', 'runId', 'timestamp']);
    const trim = log.of('memory-trim')[0]!;
    assert.equal(trim.runId, result.runId);
    assert.equal(trim.parentRunId, undefined);
  });

  test('usage events carry running totals', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'slow_a', parameters: {} }], usage: { promptTokens: 3, completionTokens: 2 } }, { text: 'ok', usage: { promptTokens: 4, completionTokens: 1 } }] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [slowTool('slow_a', 1, [])], observers: [log.observer], runtime: testRuntime() });
    await agent.run('x');
    assert.deepEqual(log.of('usage').map((e) => [e.total.totalTokens, e.total.llmCalls]), [[5, 1], [10, 2]]);
  });

  test('an approval timeout past setTimeout range is clamped, and reported clamped', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'slow_a', parameters: {} }] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [slowTool('slow_a', 1, [])], toolPolicy: new ToolPolicy({ review: ['*'] }), approvalTimeout: 3e9, observers: [log.observer], runtime: testRuntime() });
    await agent.run('x', { approve: () => true });
    assert.equal(log.of('approval-request')[0]!.timeoutMs, 2 ** 31 - 1);
  });
});

test('tool arguments named like Object.prototype members work with a frozen prototype', () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const code = `Object.freeze(Object.prototype);
const { tool } = await import('./lib/tools/tool.ts');
const t = tool({ name: 'x', description: 'A tool with odd names', parameters: { type: 'object', properties: { constructor: { type: 'string' }, toString: { type: 'string' } } }, execute: () => 'ok' });
const r = await t.validateArgs({ constructor: 'a', toString: 'b' });
if (!r.ok || r.value.constructor !== 'a' || r.value.toString !== 'b') throw new Error(JSON.stringify(r));`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
});
