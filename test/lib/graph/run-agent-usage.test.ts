import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { GraphExecutionError } from '../../../lib/core/errors/graph-execution-error.js';
import { AgentGraph, ErrorPolicy } from '../../../lib/graph/index.js';
import { ScriptedProvider, type ScriptedReply } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import { eventLog } from '../../support/agent-harness.js';

const note = tool({ name: 'note', description: 'Writes a note down', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: () => 'noted' });

/** A researcher whose run makes one model call (a tool call, 45 tokens, $0.004) and then fails. */
function failingAfterOneCall(extra: ScriptedReply[] = []): { agent: Agent; provider: ScriptedProvider } {
  const provider = new ScriptedProvider({
    replies: [{ toolCalls: [{ toolName: 'note', parameters: { text: 'tides' } }], usage: { promptTokens: 40, completionTokens: 5, costUsd: 0.004 } }, { error: new Error('researcher crashed') }, ...extra],
  });
  return { agent: new Agent({ name: 'researcher', provider, tools: [note] }), provider };
}

describe('ctx.runAgent and agent nodes: usage of a failed nested run', () => {
  test('SKIP: the node is a failure (skipped, state.errors) and its usage and the run’s include the failed call', async () => {
    const researcher = failingAfterOneCall();
    const graph = new AgentGraph()
      .addNode('delegate', async (_state, ctx) => (await ctx.runAgent(researcher.agent, 'What causes tides?')).content, { errorPolicy: ErrorPolicy.SKIP, next: 'after' })
      .addNode('after', () => 'carried on')
      .setEntry('delegate');
    const log = eventLog();
    const result = await graph.run('tides', { observers: [log.observer] });
    assert.equal(researcher.provider.requests.length, 2);
    const node = result.nodeResults.delegate?.[0];
    assert.equal(node?.status, 'skipped', 'a failure, not a success');
    assert.match(node?.error?.message ?? '', /researcher crashed/);
    assert.deepEqual(result.state.errors.map((e) => e.node), ['delegate']);
    assert.equal(node?.usage.totalTokens, 45, 'the node’s usage has the call made before the failure');
    assert.equal(result.totalUsage.totalTokens, 45);
    assert.ok(Math.abs(result.totalUsage.totalCostUsd - 0.004) < 1e-9, `cost (${result.totalUsage.totalCostUsd})`);
    assert.equal(log.of('run-end').find((e) => e.agentName === 'researcher')?.status, 'error');
  });

  test('RETRY: the failed attempt’s call counts with the successful attempt’s', async () => {
    const researcher = failingAfterOneCall([{ text: 'The moon.', usage: { promptTokens: 30, completionTokens: 3, costUsd: 0.003 } }]);
    const graph = new AgentGraph({ sleep: async () => undefined })
      .addNode('delegate', async (_state, ctx) => (await ctx.runAgent(researcher.agent, 'What causes tides?')).content, { errorPolicy: ErrorPolicy.RETRY })
      .setEntry('delegate');
    const result = await graph.run('tides');
    assert.equal(result.content, 'The moon.');
    const node = result.nodeResults.delegate?.[0];
    assert.equal(node?.attempts, 2);
    assert.equal(node?.usage.totalTokens, 45 + 33);
    assert.equal(result.totalUsage.totalTokens, 45 + 33);
    assert.ok(Math.abs(result.totalUsage.totalCostUsd - 0.007) < 1e-9, `cost (${result.totalUsage.totalCostUsd})`);
  });

  test('ABORT: the failure is a GraphExecutionError naming the node, never a result', async () => {
    const researcher = failingAfterOneCall();
    const graph = new AgentGraph().addNode('delegate', async (_state, ctx) => (await ctx.runAgent(researcher.agent, 'q')).content).setEntry('delegate');
    await assert.rejects(graph.run('tides'), (e: unknown) => GraphExecutionError.isInstance(e) && e.node === 'delegate' && /researcher crashed/.test(e.message));
  });
  test('an agent node that fails after one call: skipped, with that call in its usage and the run’s', async () => {
    const researcher = failingAfterOneCall();
    const graph = new AgentGraph()
      .addNode('research', researcher.agent, { errorPolicy: ErrorPolicy.SKIP, next: 'after' })
      .addNode('after', () => 'carried on')
      .setEntry('research');
    const result = await graph.run('tides');
    const node = result.nodeResults.research?.[0];
    assert.equal(node?.status, 'skipped');
    assert.equal(node?.usage.totalTokens, 45);
    assert.equal(result.totalUsage.totalTokens, 45);
    assert.equal(result.content, 'carried on');
  });
});
