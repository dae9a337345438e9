/** An OTLP/JSON attribute value (int64 values are decimal strings, as in the protobuf JSON mapping). */
export type OtelAttributeValue =
  | { stringValue: string }
  | { intValue: string }
  | { doubleValue: number }
  | { boolValue: boolean }
  | { arrayValue: { values: OtelAttributeValue[] } };

/** An OTLP/JSON key-value attribute. */
export interface OtelAttribute {
  key: string;
  value: OtelAttributeValue;
}

/** OTLP span kinds used by agentlib. */
export const SpanKind = { INTERNAL: 1, CLIENT: 3 } as const;

/** OTLP status codes: UNSET (success, per convention), OK, ERROR. */
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/** One span in OTLP/JSON form (the `spans` entries of an OTLP `/v1/traces` request). */
export interface OtelSpan {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: (typeof SpanKind)[keyof typeof SpanKind];
  /** Nanoseconds since the epoch, as a decimal string. */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtelAttribute[];
  status: { code: (typeof SpanStatusCode)[keyof typeof SpanStatusCode]; message?: string };
}

/** A whole OTLP/JSON export request body (`POST /v1/traces`). */
export interface OtlpTraceRequest {
  resourceSpans: Array<{
    resource: { attributes: OtelAttribute[] };
    scopeSpans: Array<{ scope: { name: string; version?: string }; spans: OtelSpan[] }>;
  }>;
}

/** A plain attribute value (what `spanAttribute` returns). */
export type PlainAttributeValue = string | number | boolean | PlainAttributeValue[];

/** Converts a plain value to an OTLP attribute value (integers → intValue, other numbers → doubleValue). */
export function toAttributeValue(value: PlainAttributeValue): OtelAttributeValue {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map(toAttributeValue) } };
}

/** The plain value of attribute `key` of a span (int64 strings become numbers), or undefined. */
export function spanAttribute(span: Pick<OtelSpan, 'attributes'>, key: string): PlainAttributeValue | undefined {
  const found = span.attributes.find((attribute) => attribute.key === key);
  return found === undefined ? undefined : fromAttributeValue(found.value);
}

function fromAttributeValue(value: OtelAttributeValue): PlainAttributeValue {
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  return value.arrayValue.values.map(fromAttributeValue);
}

/** Wraps spans into an OTLP/JSON export request with a `service.name` resource attribute. */
export function toOtlpTraceRequest(
  spans: OtelSpan[],
  options: { serviceName?: string; scopeVersion?: string } = {},
): OtlpTraceRequest {
  const scope: { name: string; version?: string } = { name: 'agentlib' };
  if (options.scopeVersion !== undefined) scope.version = options.scopeVersion;
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: options.serviceName ?? 'agentlib' } }] },
        scopeSpans: [{ scope, spans }],
      },
    ],
  };
}
