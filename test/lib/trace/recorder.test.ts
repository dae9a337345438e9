import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makeUsage } from '../../../lib/core/usage.js';
import type { AgentEvent, AgentEventPayloads, AgentEventType } from '../../../lib/events/types.js';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { TraceFormatError } from '../../../lib/core/errors/trace-format-error.js';
import { TraceRecorder } from '../../../lib/trace/recorder.js';
import { STEP_TYPES } from '../../../lib/trace/step-type.js';

const T0 = 1_700_000_000_000;
const runUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, totalCostUsd: 0, embeddingTokens: 0, totalEmbeddingCostUsd: 0, llmCalls: 0, toolUsage: {}, toolTokens: {} };

function ev<T extends AgentEventType>(type: T, ms: number, payload: AgentEventPayloads[T], ids: { runId?: string; parentRunId?: string } = {}): AgentEvent {
  const event = { type, runId: ids.runId ?? 'run_1', timestamp: T0 + ms, ...payload } as AgentEvent;
  if (ids.parentRunId !== undefined) event.parentRunId = ids.parentRunId;
  return event;
}

const llmStart = (ms: number, iteration: number, ids?: { runId?: string; parentRunId?: string }): AgentEvent =>
  ev('llm-start', ms, { iteration, provider: 'openai', model: 'gpt-4o', messageCount: 2, toolCount: 2 }, ids);

function record(events: AgentEvent[], options: { toolResultChars?: number } = {}): TraceRecorder {
  const recorder = new TraceRecorder({ runId: 'run_1', metadata: { team: 'core' }, ...options });
  for (const event of events) recorder.handle(event);
  return recorder;
}

describe('TraceRecorder', () => {
  test('pairs LLM and parallel tool events into llm_call, tool_selection and tool_execution steps', () => {
    const { trace } = record([
      ev('run-start', 0, { agentName: 'helper', input: 'weather?', provider: 'openai', model: 'gpt-4o' }),
      llmStart(10, 1),
      ev('llm-end', 110, {
        iteration: 1, provider: 'openai', model: 'gpt-4o', durationMs: 100, finishReason: 'tool-calls', content: '',
        usage: makeUsage({ promptTokens: 50, completionTokens: 10, costUsd: 0.002 }),
        toolCalls: [{ id: 'a', toolName: 'lookup', parameters: { q: 'Oulu' } }, { id: 'b', toolName: 'slow', parameters: {} }],
        reasoning: 'I need both.',
      }),
      ev('tool-start', 120, { callId: 'a', toolName: 'lookup', args: { q: 'Oulu' } }),
      ev('tool-start', 121, { callId: 'b', toolName: 'slow', args: {} }),
      ev('tool-error', 150, { callId: 'b', toolName: 'slow', args: {}, error: { name: 'ToolExecutionError', message: 'boom' }, kind: 'execution', durationMs: 29 }),
      ev('tool-end', 220, { callId: 'a', toolName: 'lookup', args: { q: 'Oulu' }, result: 'x'.repeat(50), durationMs: 100, cached: false }),
      ev('run-end', 300, { agentName: 'helper', status: 'completed', content: 'Sunny', iterations: 2, durationMs: 300, usage: runUsage }),
    ], { toolResultChars: 40 });

    assert.equal(trace.agentName, 'helper');
    assert.equal(trace.startedAt, T0);
    assert.equal(trace.endedAt, T0 + 300);
    assert.equal(trace.status, 'completed');
    assert.equal(trace.output, 'Sunny');
    assert.deepEqual(trace.metadata, { team: 'core' });

    const llm = trace.filter({ type: 'llm_call' })[0]!;
    assert.equal(llm.name, 'gpt-4o');
    assert.equal(llm.startedAt, T0 + 10);
    assert.equal(llm.durationMs, 100);
    assert.equal(llm.timestamp, new Date(T0 + 10).toISOString());
    assert.deepEqual(llm.usage, { promptTokens: 50, completionTokens: 10, totalTokens: 60 });
    assert.equal(llm.costUsd, 0.002);
    assert.equal(llm.input, '2 messages, 2 tools');

    const selection = trace.filter({ type: 'tool_selection' })[0]!;
    assert.equal(selection.parentId, llm.id);
    assert.equal(selection.reasoning, 'I need both.');
    assert.equal(selection.output, 'lookup({"q":"Oulu"})\nslow({})');

    const [slow, lookup] = trace.filter({ type: 'tool_execution' });
    assert.equal(lookup!.name, 'lookup');
    assert.equal(lookup!.status, 'ok');
    assert.equal(lookup!.parentId, selection.id);
    assert.equal(lookup!.startedAt, T0 + 120);
    assert.equal(lookup!.durationMs, 100);
    assert.equal(lookup!.input, '{"q":"Oulu"}');
    assert.equal(lookup!.output, `${'x'.repeat(40)}… [truncated 10 chars]`);
    assert.equal(lookup!.metadata?.['callId'], 'a');
    assert.equal(slow!.status, 'error');
    assert.equal(slow!.error?.message, 'boom');
    assert.equal(slow!.startedAt, T0 + 121);
    // The two calls overlap in time.
    assert.ok(slow!.startedAt < lookup!.startedAt + lookup!.durationMs && lookup!.startedAt < slow!.startedAt + slow!.durationMs);
    assert.equal(new Set(trace.steps.map((s) => s.id)).size, trace.steps.length, 'step ids are unique');
  });

  test('every StepType is produced by some event', () => {
    const g = { graph: 'flow' };
    const { trace } = record([
      llmStart(0, 1),
      ev('llm-end', 5, { iteration: 1, provider: 'openai', model: 'gpt-4o', durationMs: 5, usage: makeUsage({}), finishReason: 'tool-calls', content: '', toolCalls: [{ id: 'c', toolName: 't', parameters: {} }] }),
      ev('tool-start', 6, { callId: 'c', toolName: 't', args: {} }),
      ev('tool-end', 7, { callId: 'c', toolName: 't', args: {}, result: 'r', durationMs: 1, cached: false }),
      ev('cache-hit', 8, { kind: 'response', iteration: 2, key: 'k', model: 'gpt-4o' }),
      ev('error', 9, { error: { name: 'E', message: 'm' }, stage: 'run' }),
      ev('structured-validate', 10, { iteration: 2, attempt: 1, valid: false, issues: ['age: expected number'] }),
      ev('session-load', 11, { sessionId: 's', messages: 3 }),
      ev('session-save', 12, { sessionId: 's', messages: 5 }),
      ev('memory-summarize', 13, { messagesSummarized: 4, summaryChars: 120 }),
      ev('entity-extraction', 14, { entities: 2, names: ['Ada', 'Acme'] }),
      ev('kg-extraction', 15, { triples: 3 }),
      ev('guardrail-triggered', 16, { guardrail: 'pii', stage: 'input', action: 'rewrite', reason: 'email' }),
      ev('coherence-blocked', 17, { callId: 'c', toolName: 't', reason: 'off task' }),
      ev('output-screened', 18, { callId: 'c', toolName: 't', patterns: ['ignore previous'], replaced: 1 }),
      ev('budget-exceeded', 19, { kind: 'tokens', limit: 10, actual: 12 }),
      ev('cancelled', 20, { stage: 'iteration', iteration: 3, reason: 'user' }),
      ev('prompt-compressed', 21, { beforeTokens: 900, afterTokens: 300, messagesCompressed: 6 }),
      ev('node-start', 22, { ...g, node: 'research', step: 1 }),
      ev('node-end', 23, { ...g, node: 'research', step: 1, durationMs: 1, output: 'done' }),
      ev('graph-routing', 24, { ...g, from: 'research', to: 'write', conditional: true }),
      ev('graph-checkpoint', 25, { ...g, node: 'write', checkpointId: 'cp1' }),
      ev('graph-interrupt', 26, { ...g, node: 'write', interruptId: 'i1', prompt: 'approve?' }),
      ev('graph-resume', 27, { ...g, node: 'write', interruptId: 'i1' }),
      ev('parallel-start', 28, { ...g, nodes: ['a', 'b'] }),
      ev('parallel-end', 29, { ...g, nodes: ['a', 'b'], durationMs: 1 }),
      ev('stall-detected', 30, { ...g, node: 'a', stalls: 2 }),
      ev('loop-detected', 31, { ...g, node: 'a', hash: 'abc' }),
    ]);
    const produced = new Set(trace.steps.map((s) => s.type));
    assert.deepEqual(STEP_TYPES.filter((type) => !produced.has(type)), []);
    const coherence = trace.filter({ type: 'coherence_check' })[0]!;
    assert.equal(coherence.parentId, trace.filter({ type: 'tool_selection' })[0]!.id, 'steps about a call hang under its selection');
  });

  test('graph node and parallel start steps span until their end event', () => {
    const { trace } = record([
      ev('node-start', 10, { graph: 'g', node: 'a', step: 1 }),
      ev('parallel-start', 12, { graph: 'g', nodes: ['x', 'y'] }),
      ev('parallel-end', 40, { graph: 'g', nodes: ['x', 'y'], durationMs: 28 }),
      ev('node-end', 50, { graph: 'g', node: 'a', step: 1, durationMs: 40, output: 'out' }),
    ]);
    assert.equal(trace.filter({ type: 'graph_node_start' })[0]!.durationMs, 40);
    assert.equal(trace.filter({ type: 'graph_parallel_start' })[0]!.durationMs, 28);
    const end = trace.filter({ type: 'graph_node_end' })[0]!;
    assert.equal(end.output, 'out');
    assert.equal(end.startedAt, T0 + 50);
  });

  test('only failed structured validation, and non-allow policy decisions, are recorded', () => {
    const { trace } = record([
      llmStart(0, 1),
      ev('llm-end', 5, { iteration: 1, provider: 'p', model: 'm', durationMs: 5, usage: makeUsage({}), finishReason: 'tool-calls', content: '', toolCalls: [{ id: 'd', toolName: 'delete_all', parameters: {} }, { id: 'e', toolName: 'ok', parameters: {} }] }),
      ev('policy-decision', 6, { callId: 'd', toolName: 'delete_all', args: {}, decision: 'deny', reason: 'matches delete_*' }),
      ev('policy-decision', 6, { callId: 'e', toolName: 'ok', args: {}, decision: 'allow', reason: 'default' }),
      ev('structured-validate', 7, { iteration: 1, attempt: 1, valid: true, issues: [] }),
    ]);
    assert.equal(trace.filter({ type: 'structured_retry' }).length, 0);
    const selection = trace.filter({ type: 'tool_selection' })[0]!;
    assert.deepEqual(selection.metadata?.['policy'], [{ callId: 'd', toolName: 'delete_all', decision: 'deny', reason: 'matches delete_*' }]);
  });

  test('a cache hit takes the usage that follows it; a failed LLM call becomes an error llm_call', () => {
    const { trace } = record([
      ev('cache-hit', 1, { kind: 'response', iteration: 1, key: 'k', model: 'gpt-4o' }),
      ev('usage', 1, { iteration: 1, usage: makeUsage({ promptTokens: 7, completionTokens: 3 }), total: runUsage }),
      llmStart(2, 2),
      ev('llm-retry', 3, { provider: 'openai', attempt: 1, delayMs: 100, error: { name: 'ProviderError', message: '503' } }),
      ev('error', 20, { error: { name: 'ProviderError', message: 'still 503' }, stage: 'llm' }),
    ]);
    assert.deepEqual(trace.filter({ type: 'cache_hit' })[0]!.usage, { promptTokens: 7, completionTokens: 3, totalTokens: 10 });
    const failed = trace.filter({ type: 'llm_call' })[0]!;
    assert.equal(failed.status, 'error');
    assert.equal(failed.error?.message, 'still 503');
    assert.equal(failed.durationMs, 18);
    assert.equal(failed.metadata?.['retries'], 1);
    assert.equal(trace.filter({ type: 'error' }).length, 1);

    const runFailure = record([llmStart(0, 1), ev('error', 9, { error: { name: 'ProviderError', message: 'gave up' }, stage: 'run' })]).trace;
    assert.equal(runFailure.filter({ type: 'llm_call', status: 'error' })[0]?.error?.message, 'gave up');
  });

  test('run-end closes steps that never ended; close() does too', () => {
    const { trace } = record([
      ev('tool-start', 5, { callId: 'x', toolName: 'hang', args: {} }),
      ev('run-end', 25, { agentName: 'a', status: 'cancelled', content: '', iterations: 1, durationMs: 25, usage: runUsage }),
    ]);
    const step = trace.filter({ type: 'tool_execution' })[0]!;
    assert.equal(step.status, 'error');
    assert.equal(step.durationMs, 20);
    assert.equal(trace.startedAt, T0, 'the start is derived from run-end when run-start was missed');

    const recorder = new TraceRecorder({ runId: 'run_1', now: () => T0 + 100 });
    recorder.handle(llmStart(40, 1));
    recorder.close();
    assert.equal(recorder.trace.steps[0]!.durationMs, 60);
  });

  test('nested runs are recorded under the step they ran in; unrelated runs are ignored', () => {
    const child = { runId: 'run_child', parentRunId: 'run_1' };
    const grandchild = { runId: 'run_grand', parentRunId: 'run_child' };
    const { trace } = record([
      ev('graph-start', 0, { graph: 'flow', entry: 'research' }),
      ev('node-start', 1, { graph: 'flow', node: 'research', step: 1 }),
      ev('node-start', 2, { graph: 'flow', node: 'writer', step: 1 }),
      ev('run-start', 3, { agentName: 'research', input: 'q', provider: 'openai', model: 'gpt-4o' }, child),
      llmStart(4, 1, child),
      ev('llm-end', 6, { iteration: 1, provider: 'openai', model: 'gpt-4o', durationMs: 2, usage: makeUsage({ promptTokens: 1 }), finishReason: 'stop', content: 'found', toolCalls: [] }, child),
      ev('entity-extraction', 7, { entities: 1, names: ['Ada'] }, grandchild),
      ev('run-end', 8, { agentName: 'research', status: 'completed', content: 'found', iterations: 1, durationMs: 5, usage: runUsage }, child),
      ev('llm-end', 9, { iteration: 1, provider: 'x', model: 'y', durationMs: 1, usage: makeUsage({}), finishReason: 'stop', content: '', toolCalls: [] }, { runId: 'run_other' }),
      ev('node-end', 10, { graph: 'flow', node: 'research', step: 1, durationMs: 8, output: 'found' }),
      ev('graph-end', 12, { graph: 'flow', durationMs: 12, steps: 2, interrupted: false }),
    ]);
    assert.equal(trace.agentName, 'flow');
    assert.equal(trace.status, 'completed');
    const researchNode = trace.steps.find((s) => s.type === 'graph_node_start' && s.name === 'research')!;
    const nestedLlm = trace.filter({ type: 'llm_call', runId: 'run_child' })[0]!;
    assert.equal(nestedLlm.parentId, researchNode.id, 'anchored to the node named like the nested agent');
    assert.equal(trace.filter({ type: 'llm_call' }).length, 1, 'events of unrelated runs are ignored');
    assert.deepEqual(trace.nestedRuns.map((r) => [r.runId, r.parentRunId, r.parentStepId, r.status]), [
      ['run_child', 'run_1', researchNode.id, 'completed'],
      ['run_grand', 'run_child', undefined, undefined],
    ]);
    assert.equal(trace.filter({ type: 'entity_extraction' })[0]!.runId, 'run_grand');
  });

  test('a sub-agent called as a tool hangs under that tool call', () => {
    const { trace } = record([
      ev('tool-start', 1, { callId: 'c9', toolName: 'ask_expert', args: {} }),
      ev('session-load', 2, { sessionId: 's', messages: 0 }, { runId: 'run_sub', parentRunId: 'run_1' }),
      ev('tool-end', 3, { callId: 'c9', toolName: 'ask_expert', args: {}, result: 'ok', durationMs: 2, cached: false }),
    ]);
    const tool = trace.filter({ type: 'tool_execution' })[0]!;
    assert.equal(trace.filter({ type: 'session_load' })[0]!.parentId, tool.id);
  });
  test('tool arguments reach the trace with secrets redacted, at any depth (tool_execution, tool_selection, JSONL)', () => {
    const args = {
      query: 'weather in Oulu',
      max_tokens: 200,
      auth: { API_KEY: 'sk-live-1', nested: [{ password: 'hunter2', note: 'keep' }], 'x-api-key': 'k-2' },
      headers: { Authorization: 'Bearer t-3', accept: 'json' },
      session_token: 'tok-4',
      clientSecret: { value: 'sec-5' },
    };
    const secrets = ['sk-live-1', 'hunter2', 'k-2', 'Bearer t-3', 'tok-4', 'sec-5'];
    const { trace } = record([
      llmStart(0, 1),
      ev('llm-end', 10, {
        iteration: 1, provider: 'openai', model: 'gpt-4o', durationMs: 10, finishReason: 'tool-calls', content: '',
        usage: makeUsage({ promptTokens: 5, completionTokens: 5 }),
        toolCalls: [{ id: 'a', toolName: 'search', parameters: args }, { id: 'b', toolName: 'search', parameters: args }],
      }),
      ev('tool-start', 11, { callId: 'a', toolName: 'search', args }),
      ev('tool-start', 12, { callId: 'b', toolName: 'search', args }),
      ev('tool-end', 20, { callId: 'a', toolName: 'search', args, result: 'ok', durationMs: 9, cached: false }),
      ev('tool-error', 21, { callId: 'b', toolName: 'search', args, error: { name: 'ToolExecutionError', message: 'boom' }, kind: 'execution', durationMs: 9 }),
      llmStart(30, 2),
      ev('tool-start', 31, { callId: 'c', toolName: 'search', args }),
      ev('run-end', 40, { agentName: 'helper', status: 'error', content: '', iterations: 2, durationMs: 40, usage: runUsage }),
    ]);
    const jsonl = trace.toJSONL();
    for (const secret of secrets) assert.ok(!jsonl.includes(secret), `${secret} is not in the trace file`);
    const executions = trace.filter({ type: 'tool_execution' });
    assert.equal(executions.length, 3, 'ended, failed and never-ended (closed at run end) calls');
    for (const step of executions) {
      const recorded = JSON.parse(step.input ?? '{}') as typeof args;
      assert.equal(recorded.query, 'weather in Oulu');
      assert.equal(recorded.max_tokens, 200, 'a token count is not a secret');
      assert.deepEqual(recorded.auth, { API_KEY: '[REDACTED]', nested: [{ password: '[REDACTED]', note: 'keep' }], 'x-api-key': '[REDACTED]' });
      assert.deepEqual(recorded.headers, { Authorization: '[REDACTED]', accept: 'json' });
      assert.equal(recorded.session_token, '[REDACTED]');
      assert.equal(recorded.clientSecret, '[REDACTED]');
    }
    const selection = trace.filter({ type: 'tool_selection' })[0]!;
    assert.match(selection.output ?? '', /^search\(\{"query":"weather in Oulu","max_tokens":200,"auth":\{"API_KEY":"\[REDACTED\]"/);
    const calls = selection.metadata?.['toolCalls'] as Array<{ args: typeof args }>;
    assert.equal(calls[0]?.args.headers.Authorization, '[REDACTED]');
    assert.equal(args.auth.API_KEY, 'sk-live-1', 'the event payload itself is not changed');
  });

  test('an llm_call records its messages: the user message, what followed the previous call and the reply (capped, redacted)', () => {
    const prompt = `What is the weather in Oulu? ${'please '.repeat(20)}`;
    const { trace } = record([
      ev('run-start', 0, { agentName: 'helper', input: prompt, provider: 'openai', model: 'gpt-4o' }),
      ev('llm-start', 1, { iteration: 1, provider: 'openai', model: 'gpt-4o', messageCount: 1, toolCount: 1 }),
      ev('llm-end', 10, {
        iteration: 1, provider: 'openai', model: 'gpt-4o', durationMs: 9, finishReason: 'tool-calls', content: 'Let me look.',
        usage: makeUsage({ promptTokens: 5, completionTokens: 5 }),
        toolCalls: [{ id: 'a', toolName: 'weather', parameters: { city: 'Oulu', api_key: 'sk-live-9' } }, { id: 'b', toolName: 'clock', parameters: {} }, { id: 'c', toolName: 'note', parameters: { text: 'x'.repeat(100) } }],
      }),
      ev('tool-start', 11, { callId: 'a', toolName: 'weather', args: { city: 'Oulu', api_key: 'sk-live-9' } }),
      ev('tool-end', 20, { callId: 'a', toolName: 'weather', args: { city: 'Oulu', api_key: 'sk-live-9' }, result: 'Sunny, 21 °C', durationMs: 9, cached: false }),
      ev('tool-error', 21, { callId: 'b', toolName: 'clock', args: {}, error: { name: 'ToolExecutionError', message: 'no clock' }, kind: 'execution', durationMs: 0 }),
      ev('llm-start', 30, { iteration: 2, provider: 'openai', model: 'gpt-4o', messageCount: 4, toolCount: 1 }),
      ev('llm-end', 40, { iteration: 2, provider: 'openai', model: 'gpt-4o', durationMs: 10, finishReason: 'stop', content: 'Sunny, 21 °C in Oulu.', usage: makeUsage({ promptTokens: 9, completionTokens: 5 }), toolCalls: [] }),
      ev('run-end', 50, { agentName: 'helper', status: 'completed', content: 'Sunny, 21 °C in Oulu.', iterations: 2, durationMs: 50, usage: runUsage }),
    ], { toolResultChars: 40 });
    const [first, second] = trace.filter({ type: 'llm_call' });
    assert.equal(first?.input, '1 message, 1 tool', 'singular counts');
    assert.equal(second?.input, '4 messages, 1 tool');
    const user = { role: 'user', content: `${prompt.slice(0, 40)}… [truncated ${prompt.length - 40} chars]` };
    const longArgs = JSON.stringify({ text: 'x'.repeat(100) });
    const firstReply = {
      role: 'assistant',
      content: 'Let me look.',
      toolCalls: [
        { name: 'weather', args: '{"city":"Oulu","api_key":"[REDACTED]"}' },
        { name: 'clock', args: '{}' },
        { name: 'note', args: `${longArgs.slice(0, 40)}… [truncated ${longArgs.length - 40} chars]` },
      ],
    };
    assert.deepEqual(first?.messages, [user, firstReply]);
    assert.deepEqual(second?.messages, [
      user,
      firstReply,
      { role: 'tool', name: 'weather', content: 'Sunny, 21 °C' },
      { role: 'tool', name: 'clock', content: 'ToolExecutionError: no clock', isError: true },
      { role: 'assistant', content: 'Sunny, 21 °C in Oulu.' },
    ]);
    assert.ok(!trace.toJSONL().includes('sk-live-9'), 'no secret in the trace file');
    // The messages survive the trace file.
    const read = AgentTrace.fromJSONL(trace.toJSONL());
    assert.deepEqual(read.filter({ type: 'llm_call' })[1]?.messages, second?.messages);
  });

  test('trace files without messages (older ones) still load; malformed messages are rejected', () => {
    const header = JSON.stringify({ type: 'trace', version: 1, runId: 'run_old', metadata: {}, nestedRuns: [] });
    const old = { id: 's1', runId: 'run_old', type: 'llm_call', startedAt: T0, timestamp: new Date(T0).toISOString(), durationMs: 5, status: 'ok', input: '1 messages, 0 tools', output: 'hi' };
    const trace = AgentTrace.fromJSONL(`${header}\n${JSON.stringify(old)}\n`);
    assert.equal(trace.steps[0]?.messages, undefined);
    assert.equal(trace.steps[0]?.input, '1 messages, 0 tools');
    for (const messages of [[{ role: 'user' }], [{ role: 'robot', content: 'x' }], 'hi', [{ role: 'assistant', content: '', toolCalls: [{ name: 'x', args: {} }] }]]) {
      assert.throws(() => AgentTrace.fromJSONL(`${header}\n${JSON.stringify({ ...old, messages })}\n`), TraceFormatError, JSON.stringify(messages));
    }
  });
});
