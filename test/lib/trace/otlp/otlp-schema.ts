import protobuf from 'protobufjs';

/**
 * The OTLP trace messages (opentelemetry-proto v1: collector/trace/v1 ExportTraceServiceRequest,
 * trace/v1, resource/v1, common/v1) as a protobufjs reflection root: the message, field names,
 * numbers and types of the published schema, to decode what the exporter sent.
 */
export const otlpRoot = protobuf.Root.fromJSON({
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
      fields: {
        stringValue: { type: 'string', id: 1 },
        boolValue: { type: 'bool', id: 2 },
        intValue: { type: 'int64', id: 3 },
        doubleValue: { type: 'double', id: 4 },
        arrayValue: { type: 'ArrayValue', id: 5 },
        kvlistValue: { type: 'KeyValueList', id: 6 },
        bytesValue: { type: 'bytes', id: 7 },
      },
    },
    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
    KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    InstrumentationScope: { fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 }, attributes: { rule: 'repeated', type: 'KeyValue', id: 3 }, droppedAttributesCount: { type: 'uint32', id: 4 } } },
    Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 }, droppedAttributesCount: { type: 'uint32', id: 2 } } },
    Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        parentSpanId: { type: 'bytes', id: 4 },
        flags: { type: 'fixed32', id: 16 },
        name: { type: 'string', id: 5 },
        kind: { type: 'int32', id: 6 },
        startTimeUnixNano: { type: 'fixed64', id: 7 },
        endTimeUnixNano: { type: 'fixed64', id: 8 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
        droppedAttributesCount: { type: 'uint32', id: 10 },
        droppedEventsCount: { type: 'uint32', id: 12 },
        droppedLinksCount: { type: 'uint32', id: 14 },
        status: { type: 'Status', id: 15 },
      },
    },
    ScopeSpans: { fields: { scope: { type: 'InstrumentationScope', id: 1 }, spans: { rule: 'repeated', type: 'Span', id: 2 }, schemaUrl: { type: 'string', id: 3 } } },
    ResourceSpans: { fields: { resource: { type: 'Resource', id: 1 }, scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 }, schemaUrl: { type: 'string', id: 3 } } },
    ExportTraceServiceRequest: { fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } } },
  },
});

/** A decoded span, normalised: hex ids, attributes as a plain record. */
export interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  statusCode: number;
}

/** The service name and spans of an OTLP/protobuf ExportTraceServiceRequest body. */
export function decodeProtobufRequest(body: Uint8Array): { serviceName: unknown; spans: DecodedSpan[] } {
  const type = otlpRoot.lookupType('ExportTraceServiceRequest');
  const message = type.toObject(type.decode(body), { longs: String, bytes: String, defaults: true }) as {
    resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> }; scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
  };
  const attrs = (list: Array<{ key: string; value: Record<string, unknown> }>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const { key, value } of list) out[key] = value['stringValue'] ?? value['intValue'] ?? value['doubleValue'] ?? value['boolValue'] ?? value['arrayValue'];
    return out;
  };
  const hex = (value: unknown): string => Buffer.from(String(value), 'base64').toString('hex');
  const resourceSpans = message.resourceSpans[0];
  const spans = (resourceSpans?.scopeSpans ?? []).flatMap((scope) => scope.spans).map((span) => ({
    traceId: hex(span['traceId']),
    spanId: hex(span['spanId']),
    parentSpanId: hex(span['parentSpanId']),
    name: String(span['name']),
    kind: Number(span['kind']),
    attributes: attrs(span['attributes'] as Array<{ key: string; value: Record<string, unknown> }>),
    statusCode: Number((span['status'] as { code?: number } | undefined)?.code ?? 0),
  }));
  return { serviceName: attrs(resourceSpans?.resource.attributes ?? [])['service.name'], spans };
}
