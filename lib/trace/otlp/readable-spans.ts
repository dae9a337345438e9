import type { Attributes, HrTime } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { spanAttribute, type OtelSpan } from '../otel-types.js';

/** Nanoseconds since the epoch (decimal string) → OpenTelemetry's [seconds, nanoseconds]. */
function hrTime(unixNano: string): HrTime {
  const nanos = BigInt(unixNano);
  return [Number(nanos / 1_000_000_000n), Number(nanos % 1_000_000_000n)];
}

function duration(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1_000_000_000;
  }
  return seconds < 0 ? [0, 0] : [seconds, nanos];
}

/**
 * agentlib's spans (`toOtelSpans`: deterministic ids, gen_ai.* attributes) as the SDK's
 * ReadableSpan objects, so the OpenTelemetry exporters and serializers encode them (OTLP/HTTP JSON
 * or protobuf) instead of agentlib writing the wire format itself.
 */
export function toReadableSpans(spans: readonly OtelSpan[], resource: Resource, scope: { name: string; version?: string }): ReadableSpan[] {
  return spans.map((span) => {
    const attributes: Attributes = {};
    for (const { key } of span.attributes) {
      const value = spanAttribute(span, key);
      if (value !== undefined) attributes[key] = Array.isArray(value) ? value.map(String) : value;
    }
    const startTime = hrTime(span.startTimeUnixNano);
    const endTime = hrTime(span.endTimeUnixNano);
    const readable: ReadableSpan = {
      name: span.name,
      kind: span.kind === 3 ? 2 /* api SpanKind.CLIENT */ : 0 /* api SpanKind.INTERNAL */,
      spanContext: () => ({ traceId: span.traceId, spanId: span.spanId, traceFlags: 1 }),
      ...(span.parentSpanId === undefined ? {} : { parentSpanContext: { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: 1 } }),
      startTime,
      endTime,
      status: span.status.message === undefined ? { code: span.status.code } : { code: span.status.code, message: span.status.message },
      attributes,
      links: [],
      events: [],
      duration: duration(startTime, endTime),
      ended: true,
      resource,
      instrumentationScope: scope.version === undefined ? { name: scope.name } : { name: scope.name, version: scope.version },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
    return readable;
  });
}
