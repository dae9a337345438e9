import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { EventBus } from '../../../lib/events/bus.js';
import { LoggingObserver, eventLogLevel } from '../../../lib/events/logging-observer.js';
import { REDACTED, isSecretKey, redactSecrets } from '../../../lib/events/redact.js';
import { SimpleStepObserver } from '../../../lib/events/simple-step-observer.js';
import type { AgentEvent, AgentEventType } from '../../../lib/events/types.js';

const events: AgentEvent[] = [
  { type: 'run-start', runId: 'run_1', timestamp: 1_700_000_000_000, agentName: 'a', input: 'hi', provider: 'openai', model: 'gpt-4o' },
  { type: 'text-delta', runId: 'run_1', timestamp: 1_700_000_000_001, iteration: 1, text: 'H' },
  { type: 'tool-start', runId: 'run_1', timestamp: 1_700_000_000_002, parentRunId: 'run_0', callId: 'c1', toolName: 'http', args: { url: 'https://x', apiKey: 'sk-live-123', headers: { Authorization: 'Bearer abc' } } },
  { type: 'tool-error', runId: 'run_1', timestamp: 1_700_000_000_003, callId: 'c1', toolName: 'http', args: {}, error: { name: 'Error', message: 'down' }, kind: 'execution', durationMs: 1 },
];

describe('SimpleStepObserver', () => {
  test('routes every event to one callback with name, run id and the rest of the event', () => {
    const calls: Array<[string, string, Record<string, unknown>]> = [];
    const bus = new EventBus({ observers: [new SimpleStepObserver((name, runId, data) => void calls.push([name, runId, { ...data }]))] });
    for (const event of events) void bus.emit(event);
    assert.deepEqual(calls.map((c) => c[0]), ['run-start', 'text-delta', 'tool-start', 'tool-error']);
    const [, runId, data] = calls[2]!;
    assert.equal(runId, 'run_1');
    assert.equal(data['callId'], 'c1');
    assert.equal(data['parentRunId'], 'run_0');
    assert.equal(data['timestamp'], 1_700_000_000_002);
    assert.ok(!('type' in data) && !('runId' in data));
  });
});

describe('LoggingObserver', () => {
  test('writes one redacted JSON line per event at or above the level', () => {
    const lines: string[] = [];
    const bus = new EventBus({ observers: [new LoggingObserver({ write: (line) => lines.push(line) })] });
    for (const event of events) void bus.emit(event);
    assert.equal(lines.length, 3, 'text-delta is debug and skipped at the default info level');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(parsed.map((p) => [p['event'], p['level']]), [['run-start', 'info'], ['tool-start', 'info'], ['tool-error', 'warn']]);
    const toolStart = parsed[1]!;
    assert.equal(toolStart['time'], new Date(1_700_000_000_002).toISOString());
    assert.equal(toolStart['runId'], 'run_1');
    assert.equal(toolStart['parentRunId'], 'run_0');
    const args = (toolStart['data'] as { args: Record<string, unknown> }).args;
    assert.equal(args['apiKey'], REDACTED);
    assert.deepEqual(args['headers'], { Authorization: REDACTED });
    assert.equal(args['url'], 'https://x');
    assert.ok(!lines.join('\n').includes('sk-live-123'));
  });

  test('level, include and exclude filter events', () => {
    const run = (options: ConstructorParameters<typeof LoggingObserver>[0]): AgentEventType[] => {
      const lines: string[] = [];
      const observer = new LoggingObserver({ ...options, write: (line) => lines.push(line) });
      for (const event of events) observer.onEvent(event);
      return lines.map((line) => (JSON.parse(line) as { event: AgentEventType }).event);
    };
    assert.deepEqual(run({ level: 'debug' }), ['run-start', 'text-delta', 'tool-start', 'tool-error']);
    assert.deepEqual(run({ level: 'warn' }), ['tool-error']);
    assert.deepEqual(run({ include: ['tool-start', 'tool-error'] }), ['tool-start', 'tool-error']);
    assert.deepEqual(run({ exclude: ['run-start'] }), ['tool-start', 'tool-error']);
  });

  test('unknown event types in include/exclude are rejected with a suggestion', () => {
    assert.throws(
      () => new LoggingObserver({ include: ['tool-strat' as AgentEventType] }),
      (error: unknown) => ConfigurationError.isInstance(error) && /did you mean "tool-start"/.test(error.message),
    );
  });

  test('defaults to stderr, one line per event', () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = (chunk: string) => (written.push(chunk), true);
    try {
      new LoggingObserver().onEvent(events[0]!);
    } finally {
      process.stderr.write = original;
    }
    assert.equal(written.length, 1);
    assert.ok(written[0]!.endsWith('}\n'));
  });

  test('log levels follow the event', () => {
    const at = (event: AgentEvent): string => eventLogLevel(event);
    assert.equal(at({ type: 'error', runId: 'r', timestamp: 0, stage: 'run', error: { name: 'E', message: 'm' } }), 'error');
    assert.equal(at({ type: 'policy-decision', runId: 'r', timestamp: 0, callId: 'c', toolName: 't', args: {}, decision: 'deny', reason: 'x' }), 'warn');
    assert.equal(at({ type: 'policy-decision', runId: 'r', timestamp: 0, callId: 'c', toolName: 't', args: {}, decision: 'allow', reason: 'x' }), 'info');
  });
});

describe('redactSecrets', () => {
  test('replaces secret values at any depth without touching the input', () => {
    const input = {
      api_key: 'k1',
      nested: { 'x-api-key': 'k2', list: [{ password: 'p', user: 'u' }], clientSecret: 's', accessToken: 't' },
      Authorization: 'Bearer z',
      plain: 'keep',
    };
    const out = redactSecrets(input) as typeof input;
    assert.deepEqual(out, {
      api_key: REDACTED,
      nested: { 'x-api-key': REDACTED, list: [{ password: REDACTED, user: 'u' }], clientSecret: REDACTED, accessToken: REDACTED },
      Authorization: REDACTED,
      plain: 'keep',
    });
    assert.equal(input.api_key, 'k1');
  });

  test('keeps token counts but not numeric secrets; survives cycles', () => {
    const usage = { promptTokens: 10, max_tokens: 5, token: 123, password: 1234 };
    assert.deepEqual(redactSecrets(usage), { promptTokens: 10, max_tokens: 5, token: 123, password: REDACTED });
    assert.equal(isSecretKey('refresh_token', 'abc'), true);
    assert.equal(isSecretKey('totalTokens', 42), false);
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic['self'] = cyclic;
    assert.deepEqual(redactSecrets(cyclic), { name: 'x', self: '[Circular]' });
    const shared = { a: 1 };
    assert.deepEqual(redactSecrets({ left: shared, right: shared }), { left: { a: 1 }, right: { a: 1 } });
  });
});
