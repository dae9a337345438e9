import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { runSpanId } from '../../../lib/trace/otel.js';
import { SpanKind, SpanStatusCode, spanAttribute, toOtlpTraceRequest, type OtelSpan } from '../../../lib/trace/otel-types.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

const T0 = 1_700_000_000_000;

function step(fields: Partial<TraceStep> & Pick<TraceStep, 'id' | 'type'>): TraceStep {
  const startedAt = fields.startedAt ?? T0;
  return { runId: 'run_1', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 0, status: 'ok', ...fields };
}

function trace(): AgentTrace {
  return new AgentTrace({
    runId: 'run_1',
    agentName: 'helper',
    provider: 'openai',
    model: 'gpt-4o',
    startedAt: T0,
    endedAt: T0 + 500,
    status: 'completed',
    nestedRuns: [{ runId: 'run_sub', parentRunId: 'run_1', parentStepId: 's3', agentName: 'expert' }],
    steps: [
      step({ id: 's1', type: 'llm_call', name: 'gpt-4o', startedAt: T0 + 10, durationMs: 100.5, usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60 }, costUsd: 0.002, metadata: { provider: 'openai', finishReason: 'tool-calls' } }),
      step({ id: 's2', parentId: 's1', type: 'tool_selection', name: 'lookup', startedAt: T0 + 111 }),
      step({ id: 's3', parentId: 's2', type: 'tool_execution', name: 'lookup', startedAt: T0 + 120, durationMs: 200, metadata: { callId: 'call_a' } }),
      step({ id: 's4', parentId: 's2', type: 'tool_execution', name: 'broken', startedAt: T0 + 121, durationMs: 5, status: 'error', error: { name: 'ToolExecutionError', message: 'boom' }, metadata: { callId: 'call_b' } }),
      step({ id: 's5', runId: 'run_sub', parentId: 's3', type: 'llm_call', name: 'gpt-4o-mini', startedAt: T0 + 130, durationMs: 50, metadata: { provider: 'openai' } }),
      step({ id: 's6', type: 'graph_routing', name: 'a -> b', startedAt: T0 + 400 }),
    ],
  });
}

const byName = (spans: OtelSpan[], name: string): OtelSpan => {
  const found = spans.find((s) => s.name === name);
  assert.ok(found, `no span named ${name}`);
  return found;
};

describe('toOtelSpans', () => {
  test('one invoke_agent root span per run, then chat / execute_tool / step spans', () => {
    const spans = trace().toOtelSpans();
    assert.deepEqual(spans.map((s) => s.name), [
      'invoke_agent helper', 'invoke_agent expert', 'chat gpt-4o', 'tool_selection lookup', 'execute_tool lookup', 'execute_tool broken', 'chat gpt-4o-mini', 'graph_routing a -> b',
    ]);
    const traceIds = new Set(spans.map((s) => s.traceId));
    assert.equal(traceIds.size, 1);
    assert.match([...traceIds][0]!, /^[0-9a-f]{32}$/);
    for (const span of spans) assert.match(span.spanId, /^[0-9a-f]{16}$/);
    assert.equal(new Set(spans.map((s) => s.spanId)).size, spans.length);
    assert.deepEqual(trace().toOtelSpans(), spans, 'deterministic');
  });

  test('parents follow steps and nested runs', () => {
    const spans = trace().toOtelSpans();
    const root = byName(spans, 'invoke_agent helper');
    const chat = byName(spans, 'chat gpt-4o');
    const selection = byName(spans, 'tool_selection lookup');
    const tool = byName(spans, 'execute_tool lookup');
    const nested = byName(spans, 'invoke_agent expert');
    const nestedChat = byName(spans, 'chat gpt-4o-mini');
    assert.equal(root.parentSpanId, undefined);
    assert.equal(root.spanId, runSpanId('run_1'));
    assert.equal(chat.parentSpanId, root.spanId);
    assert.equal(selection.parentSpanId, chat.spanId);
    assert.equal(tool.parentSpanId, selection.spanId);
    assert.equal(nested.parentSpanId, tool.spanId, 'a nested run hangs under the step it ran in');
    assert.equal(nestedChat.parentSpanId, nested.spanId, "a nested run's steps hang under its own invoke_agent span");
    assert.equal(byName(spans, 'graph_routing a -> b').parentSpanId, root.spanId);
    assert.equal(nested.startTimeUnixNano, String((T0 + 130) * 1_000_000));
  });

  test('GenAI semantic-convention attributes, times in nanoseconds and error status', () => {
    const spans = trace().toOtelSpans();
    const root = byName(spans, 'invoke_agent helper');
    assert.equal(spanAttribute(root, 'gen_ai.operation.name'), 'invoke_agent');
    assert.equal(spanAttribute(root, 'gen_ai.agent.name'), 'helper');
    assert.equal(spanAttribute(root, 'gen_ai.provider.name'), 'openai');
    assert.equal(root.startTimeUnixNano, '1700000000000000000');
    assert.equal(root.endTimeUnixNano, '1700000000500000000');

    const chat = byName(spans, 'chat gpt-4o');
    assert.equal(chat.kind, SpanKind.CLIENT);
    assert.equal(spanAttribute(chat, 'gen_ai.operation.name'), 'chat');
    assert.equal(spanAttribute(chat, 'gen_ai.provider.name'), 'openai');
    assert.equal(spanAttribute(chat, 'gen_ai.request.model'), 'gpt-4o');
    assert.equal(spanAttribute(chat, 'gen_ai.usage.input_tokens'), 50);
    assert.equal(spanAttribute(chat, 'gen_ai.usage.output_tokens'), 10);
    assert.deepEqual(spanAttribute(chat, 'gen_ai.response.finish_reasons'), ['tool-calls']);
    assert.deepEqual(chat.attributes.find((a) => a.key === 'gen_ai.usage.input_tokens')?.value, { intValue: '50' });
    assert.equal(chat.startTimeUnixNano, '1700000000010000000');
    assert.equal(chat.endTimeUnixNano, '1700000000110500000');
    assert.equal(chat.status.code, SpanStatusCode.UNSET);

    const tool = byName(spans, 'execute_tool lookup');
    assert.equal(spanAttribute(tool, 'gen_ai.operation.name'), 'execute_tool');
    assert.equal(spanAttribute(tool, 'gen_ai.tool.name'), 'lookup');
    assert.equal(spanAttribute(tool, 'gen_ai.tool.call.id'), 'call_a');

    const broken = byName(spans, 'execute_tool broken');
    assert.deepEqual(broken.status, { code: SpanStatusCode.ERROR, message: 'boom' });
    assert.equal(spanAttribute(broken, 'error.type'), 'ToolExecutionError');
  });

  test('a run with a parent links to the parent run span and shares its trace id', () => {
    const parent = new AgentTrace({ runId: 'run_graph' }).toOtelSpans()[0]!;
    const child = new AgentTrace({ runId: 'run_1', parentRunId: 'run_graph' }).toOtelSpans()[0]!;
    assert.equal(child.parentSpanId, parent.spanId);
    assert.equal(child.traceId, parent.traceId);
    const explicit = new AgentTrace({ runId: 'r' }).toOtelSpans({ traceId: '0123456789abcdef0123456789abcdef' })[0]!;
    assert.equal(explicit.traceId, '0123456789abcdef0123456789abcdef');
    const errored = new AgentTrace({ runId: 'r', status: 'error' }).toOtelSpans()[0]!;
    assert.equal(errored.status.code, SpanStatusCode.ERROR);
  });

  test('toOtlpTraceRequest wraps spans in an OTLP/JSON export body', () => {
    const spans = trace().toOtelSpans();
    const body = toOtlpTraceRequest(spans, { serviceName: 'my-agent' });
    assert.equal(body.resourceSpans[0]!.scopeSpans[0]!.spans, spans);
    assert.deepEqual(body.resourceSpans[0]!.resource.attributes, [{ key: 'service.name', value: { stringValue: 'my-agent' } }]);
    assert.doesNotThrow(() => JSON.stringify(body));
  });
});
