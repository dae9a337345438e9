import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import { OtlpTraceExporter, otlpTracesUrl } from '../../../../lib/trace/otlp/index.js';
import { gate } from '../../../support/gate.js';
import { testRuntime, weatherTool } from '../../../support/agent-harness.js';
import { decodeProtobufRequest } from './otlp-schema.js';
import { otlpReceiver } from './otlp-receiver.js';

function weatherAgent(exporter: OtlpTraceExporter): { agent: Agent; provider: ScriptedProvider } {
  const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Graz' } }], usage: { promptTokens: 11, completionTokens: 4 } }, { text: 'Sunny.', usage: { promptTokens: 20, completionTokens: 2 } }] });
  return { agent: new Agent({ name: 'weather', provider, tools: [weatherTool()], observers: [exporter], runtime: testRuntime() }), provider };
}

interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

describe('OtlpTraceExporter', () => {
  test('the collector URL gets /v1/traces unless it has it', () => {
    assert.equal(otlpTracesUrl('http://collector:4318'), 'http://collector:4318/v1/traces');
    assert.equal(otlpTracesUrl('http://collector:4318/'), 'http://collector:4318/v1/traces');
    assert.equal(otlpTracesUrl('https://otel.example/v1/traces'), 'https://otel.example/v1/traces');
  });

  test('http/protobuf: a run arrives as decodable spans with gen_ai.* attributes, linked in one trace', async () => {
    const receiver = await otlpReceiver();
    const exporter = new OtlpTraceExporter({ url: receiver.url, serviceName: 'weather-service', scopeVersion: '0.1.0' });
    const { agent } = weatherAgent(exporter);
    const result = await agent.run('weather in Graz?');
    await exporter.forceFlush();
    await receiver.close();
    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.equal(request?.path, '/v1/traces');
    assert.equal(request?.contentType, 'application/x-protobuf');
    const decoded = decodeProtobufRequest(request?.body ?? Buffer.alloc(0));
    assert.equal(decoded.serviceName, 'weather-service');
    const root = decoded.spans.find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    const chat = decoded.spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    const tool = decoded.spans.find((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    assert.equal(root?.name, 'invoke_agent weather');
    assert.equal(root?.attributes['agentlib.run.id'], result.runId);
    assert.equal(chat.length, 2);
    assert.equal(chat[0]?.name, 'chat scripted-model');
    assert.equal(chat[0]?.kind, 3, 'SPAN_KIND_CLIENT');
    assert.equal(chat[0]?.attributes['gen_ai.usage.input_tokens'], '11');
    assert.equal(tool?.name, 'execute_tool get_weather');
    assert.equal(tool?.attributes['gen_ai.tool.name'], 'get_weather');
    assert.ok(decoded.spans.every((s) => s.traceId === root?.traceId && /^[0-9a-f]{32}$/.test(s.traceId)));
    assert.equal(root?.parentSpanId, '', 'the run is the root span');
    assert.ok(chat.every((s) => decoded.spans.some((p) => p.spanId === s.parentSpanId)), 'every chat span has its parent in the export');
    assert.equal(exporter.queuedSpans, decoded.spans.length);
    await exporter.shutdown();
  });

  test('http/json: the body is OTLP/JSON (hex ids, integer attributes)', async () => {
    const receiver = await otlpReceiver();
    const exporter = new OtlpTraceExporter({ url: receiver.url, protocol: 'http/json' });
    await weatherAgent(exporter).agent.run('weather in Graz?');
    await exporter.shutdown();
    await receiver.close();
    const [request] = receiver.received;
    assert.equal(request?.contentType, 'application/json');
    const body = JSON.parse(request?.body.toString('utf8') ?? '{}') as { resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ scope: { name: string }; spans: JsonSpan[] }> }> };
    const scopeSpans = body.resourceSpans[0]?.scopeSpans[0];
    assert.equal(scopeSpans?.scope.name, 'agentlib');
    assert.deepEqual(body.resourceSpans[0]?.resource.attributes.find((a) => a.key === 'service.name')?.value, { stringValue: 'agentlib' });
    const chat = scopeSpans?.spans.find((s) => s.name === 'chat scripted-model');
    assert.match(chat?.traceId ?? '', /^[0-9a-f]{32}$/);
    assert.deepEqual(chat?.attributes.find((a) => a.key === 'gen_ai.usage.input_tokens')?.value, { intValue: 11 });
  });

  test('a 503 is retried by the exporter and the spans still arrive', async () => {
    const receiver = await otlpReceiver([503]);
    const errors: Error[] = [];
    const exporter = new OtlpTraceExporter({ url: receiver.url, onError: (e) => errors.push(e) });
    await weatherAgent(exporter).agent.run('weather in Graz?');
    await exporter.forceFlush();
    await receiver.close();
    assert.equal(receiver.received.length, 2);
    assert.deepEqual(errors, []);
    await exporter.shutdown();
  });

  test('a refused export is reported through onError, never to the run', async () => {
    const receiver = await otlpReceiver([400]);
    const errors: Error[] = [];
    const exporter = new OtlpTraceExporter({ url: receiver.url, onError: (e) => errors.push(e) });
    const result = await weatherAgent(exporter).agent.run('weather in Graz?');
    await exporter.forceFlush();
    await receiver.close();
    assert.equal(result.status, 'completed');
    assert.equal(errors.length, 1);
    await exporter.shutdown();
  });

  test('never blocks a run: the run ends while the collector has not answered', async () => {
    const held = gate();
    const { createServer } = await import('node:http');
    const server = createServer((_request, response) => void held.opened.then(() => response.end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    const exporter = new OtlpTraceExporter({ url: `http://127.0.0.1:${address.port}`, scheduledDelayMillis: 0, onError: () => undefined });
    const result = await weatherAgent(exporter).agent.run('weather in Graz?');
    assert.equal(result.status, 'completed');
    held.open();
    await exporter.shutdown();
    await new Promise((resolve) => server.close(resolve));
  });
});
