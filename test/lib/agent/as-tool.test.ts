import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { CancellationToken } from '../../../lib/core/cancellation-token.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import { renderTraceTree } from '../../../commands/trace/render-tree.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

function team(subReplies: ConstructorParameters<typeof ScriptedProvider>[0]) {
  const subProvider = new ScriptedProvider(subReplies);
  // No test runtime here: two sequential id generators would give both runs the same id.
  const researcher = new Agent({ name: 'researcher', provider: subProvider });
  const callerProvider = new ScriptedProvider({
    replies: [{ toolCalls: [{ toolName: 'ask_researcher', parameters: { input: 'What causes tides?' } }], usage: { promptTokens: 100, completionTokens: 10, costUsd: 0.01 } }, { text: 'The moon, says my researcher.', usage: { promptTokens: 120, completionTokens: 10, costUsd: 0.02 } }],
  });
  const log = eventLog();
  const caller = new Agent({ name: 'lead', provider: callerProvider, tools: [researcher.asTool({ name: 'ask_researcher', description: 'Ask the researcher a question about science' })], observers: [log.observer], runtime: testRuntime() });
  return { caller, researcher, subProvider, log };
}

describe('agent.asTool()', () => {
  test('the call runs the agent nested: its input, parentRunId, usage and cost in the caller’s, history untouched', async () => {
    const { caller, researcher, subProvider, log } = team({ replies: [{ text: 'The moon.', usage: { promptTokens: 40, completionTokens: 5, costUsd: 0.004 } }] });
    const result = await caller.run('Why are there tides?');
    assert.equal(result.content, 'The moon, says my researcher.');
    assert.equal(subProvider.requests[0]?.messages.at(-1)?.content, 'What causes tides?');
    const nestedStart = log.of('run-start').find((e) => e.agentName === 'researcher');
    assert.equal(nestedStart?.parentRunId, result.runId);
    assert.equal(log.of('tool-end')[0]?.result, 'The moon.');
    assert.equal(result.usage.totalTokens, 110 + 130 + 45, 'caller + nested tokens');
    assert.ok(Math.abs(result.usage.totalCostUsd - 0.034) < 1e-9, `cost rolls up (${result.usage.totalCostUsd})`);
    assert.equal(researcher.history.length, 0, 'the nested run does not touch the agent’s conversation');
  });

  test('the trace nests the run under the tool call, and trace view draws it there', async () => {
    const { caller } = team({ replies: ['The moon.'] });
    const result = await caller.run('Why are there tides?');
    const steps = result.trace.steps;
    const toolStep = steps.find((s) => s.type === 'tool_execution' && s.name === 'ask_researcher');
    assert.ok(toolStep);
    const nested = result.trace.nestedRuns[0];
    assert.equal(nested?.parentStepId, toolStep.id);
    const nestedLlm = steps.find((s) => s.type === 'llm_call' && s.runId === nested?.runId);
    assert.equal(nestedLlm?.parentId, toolStep.id);
    const lines = renderTraceTree(result.trace, { width: 120, ascii: true }).split('\n');
    const toolLine = lines.findIndex((l) => /tool_execution ask_researcher/.test(l));
    const nestedLine = lines.findIndex((l, i) => i > toolLine && /llm_call/.test(l));
    assert.ok(toolLine >= 0 && nestedLine === toolLine + 1, lines.join('\n'));
    const indent = (l: string): number => l.search(/[a-z]/);
    assert.ok(indent(lines[nestedLine] ?? '') > indent(lines[toolLine] ?? ''), 'drawn one level deeper');
  });

  test('cancelling the caller cancels the nested run; a failing nested run is a tool error, not an answer', async () => {
    const token = new CancellationToken();
    const researcher = new Agent({ name: 'researcher', provider: new ScriptedProvider({ replies: [{ text: 'late', delayMs: 60_000 }] }) });
    const log = eventLog();
    const lead = new Agent({
      name: 'lead',
      provider: new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'ask', parameters: { input: 'q' } }] }] }),
      tools: [researcher.asTool({ name: 'ask', description: 'Ask the researcher anything' })],
      cancellationToken: token,
      observers: [log.observer, { onLlmStart: (e: AgentEvent) => { if (e.parentRunId !== undefined) token.set('stop'); } }],
      runtime: testRuntime(),
    });
    const result = await lead.run('go');
    assert.equal(result.status, 'cancelled');
    const nestedEnd = log.of('run-end').find((e) => e.agentName === 'researcher');
    assert.equal(nestedEnd?.status, 'cancelled', 'the nested run saw the cancellation');

    const failing = team({ replies: [{ error: new Error('researcher crashed') }] });
    const r = await failing.caller.run('Why?');
    const toolError = failing.log.of('tool-error')[0];
    assert.equal(toolError?.toolName, 'ask_researcher');
    assert.match(toolError?.error.message ?? '', /researcher crashed/);
    assert.equal(r.content, 'The moon, says my researcher.');
    assert.equal(failing.log.of('tool-end').length, 0, 'no successful tool result');
  });
  test('a nested run that fails after one model call: the caller’s usage and cost include that call, and the call is a tool error', async () => {
    const note = tool({ name: 'note', description: 'Writes a note down', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, execute: () => 'noted' });
    const subProvider = new ScriptedProvider({
      replies: [{ toolCalls: [{ toolName: 'note', parameters: { text: 'tides' } }], usage: { promptTokens: 40, completionTokens: 5, costUsd: 0.004 } }, { error: new Error('researcher crashed') }],
    });
    const researcher = new Agent({ name: 'researcher', provider: subProvider, tools: [note] });
    const callerProvider = new ScriptedProvider({
      replies: [{ toolCalls: [{ toolName: 'ask_researcher', parameters: { input: 'What causes tides?' } }], usage: { promptTokens: 100, completionTokens: 10, costUsd: 0.01 } }, { text: 'My researcher failed.', usage: { promptTokens: 120, completionTokens: 10, costUsd: 0.02 } }],
    });
    const log = eventLog();
    const caller = new Agent({ name: 'lead', provider: callerProvider, tools: [researcher.asTool({ name: 'ask_researcher', description: 'Ask the researcher a question about science' })], observers: [log.observer], runtime: testRuntime() });
    const result = await caller.run('Why are there tides?');
    assert.equal(subProvider.requests.length, 2, 'the nested run made its call, then failed on the second');
    assert.equal(log.of('run-end').find((e) => e.agentName === 'researcher')?.status, 'error');
    assert.match(log.of('tool-error')[0]?.error.message ?? '', /researcher crashed/);
    assert.equal(log.of('tool-end').filter((e) => e.toolName === 'ask_researcher').length, 0, 'never a successful tool result');
    assert.equal(result.usage.totalTokens, 110 + 130 + 45, 'the failed nested run’s call counts');
    assert.ok(Math.abs(result.usage.totalCostUsd - 0.034) < 1e-9, `its cost counts (${result.usage.totalCostUsd})`);
  });
});
