import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtlpProto from '@opentelemetry/exporter-trace-otlp-proto';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { loadOptional } from '../../storage/index.js';
import type { AgentObserver } from '../../events/observer.js';
import type { AgentEvent } from '../../events/types.js';
import { toOtelSpans } from '../otel.js';
import { TraceRecorder } from '../recorder.js';
import type { TraceData } from '../trace-data.js';
import { toReadableSpans } from './readable-spans.js';

/** OTLP/HTTP encodings. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** Options of an OtlpTraceExporter. */
export interface OtlpTraceExporterOptions {
  /** The collector: its base URL (`http://collector:4318`, `/v1/traces` is added) or the full traces URL. */
  url: string;
  /** Default `http/protobuf`. */
  protocol?: OtlpProtocol;
  /** Extra request headers (an API key of a hosted collector). */
  headers?: Record<string, string>;
  /** The `service.name` resource attribute. Default `agentlib`. */
  serviceName?: string;
  /** Instrumentation scope version (agentlib's version). */
  scopeVersion?: string;
  /** Spans per request. Default 512. */
  maxExportBatchSize?: number;
  /** How long spans wait to fill a batch, ms. Default 1000. */
  scheduledDelayMillis?: number;
  /** Spans held at most; more are dropped (the run never waits). Default 2048. */
  maxQueueSize?: number;
  /** Time limit of one export (retries included), ms. Default 10000. */
  exportTimeoutMillis?: number;
  /** Told about each failed export (after the exporter's own retries). Default: one process warning. */
  onError?: (error: Error) => void;
}

/** `ExportResultCode.SUCCESS` of @opentelemetry/core (not imported: the result's code is a plain number at run time). */
const EXPORT_SUCCESS: number = 0;

interface Pipeline {
  processor: { onEnd(span: ReadableSpan): void; forceFlush(): Promise<void>; shutdown(): Promise<void> };
  resource: Parameters<typeof toReadableSpans>[1];
}

/** The traces endpoint of a collector URL: `/v1/traces` is appended unless the path already ends with it. */
export function otlpTracesUrl(url: string): string {
  const parsed = new URL(url);
  if (!parsed.pathname.endsWith('/v1/traces')) parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/v1/traces`;
  return parsed.toString();
}

/**
 * An observer that sends every finished run to an OpenTelemetry collector as OTLP/HTTP spans
 * (protobuf or JSON) with the GenAI semantic-convention attributes (`gen_ai.*`, see `toOtelSpans`):
 * one `invoke_agent` span per run (nested runs included), `chat <model>` and `execute_tool <tool>`
 * spans, and a span per other step. Encoding, batching and retries (429, 502, 503, 504 with
 * backoff) are the OpenTelemetry JS packages' own (`@opentelemetry/exporter-trace-otlp-proto` /
 * `-http` behind a `BatchSpanProcessor`), loaded when the first run ends. Nothing here blocks a
 * run: spans are queued and sent in the background. Call `shutdown()` (or `forceFlush()`) before
 * the process exits.
 *
 * ```ts
 * const otlp = new OtlpTraceExporter({ url: 'http://localhost:4318' });
 * const agent = new Agent({ provider, observers: [otlp] });
 * await agent.run('…');
 * await otlp.shutdown();
 * ```
 */
export class OtlpTraceExporter implements AgentObserver {
  readonly name = 'otlp-trace-exporter';
  readonly url: string;
  readonly #options: OtlpTraceExporterOptions;
  /** Recorders of the runs being traced, by root run id. */
  readonly #recorders = new Map<string, TraceRecorder>();
  /** Every run id being traced (roots and nested runs) → its root. */
  readonly #rootOf = new Map<string, string>();
  #pipeline: Promise<Pipeline | undefined> | undefined;
  #warned = false;
  #lastReported: unknown;
  /** Spans handed to the batch processor so far. */
  queuedSpans = 0;

  constructor(options: OtlpTraceExporterOptions) {
    this.url = otlpTracesUrl(options.url);
    this.#options = options;
  }

  onEvent(event: AgentEvent): void {
    if (event.type === 'run-start' || event.type === 'graph-start') {
      const root = event.parentRunId === undefined ? undefined : this.#rootOf.get(event.parentRunId);
      if (root !== undefined) this.#rootOf.set(event.runId, root);
      else if (!this.#recorders.has(event.runId)) {
        this.#recorders.set(event.runId, new TraceRecorder({ runId: event.runId, ...(event.parentRunId === undefined ? {} : { parentRunId: event.parentRunId }) }));
        this.#rootOf.set(event.runId, event.runId);
      }
    }
    const root = this.#rootOf.get(event.runId);
    if (root === undefined) return;
    const recorder = this.#recorders.get(root);
    recorder?.handle(event);
    if ((event.type === 'run-end' || event.type === 'graph-end') && event.runId === root && recorder !== undefined) {
      this.#recorders.delete(root);
      for (const [runId, of] of this.#rootOf) if (of === root) this.#rootOf.delete(runId);
      recorder.close();
      this.exportTrace(recorder.trace);
    }
  }

  /** Queues the spans of a trace (a finished run, or one read from a store); returns at once. */
  exportTrace(trace: TraceData): void {
    const spans = toOtelSpans(trace);
    void this.#ready().then((pipeline) => {
      if (pipeline === undefined) return;
      const scope = { name: 'agentlib', ...(this.#options.scopeVersion === undefined ? {} : { version: this.#options.scopeVersion }) };
      for (const span of toReadableSpans(spans, pipeline.resource, scope)) {
        pipeline.processor.onEnd(span);
        this.queuedSpans++;
      }
    });
  }

  /** Sends everything queued; resolves when the collector has answered or the export failed (failures go to `onError`). */
  async forceFlush(): Promise<void> {
    const pipeline = await this.#pipeline;
    await pipeline?.processor.forceFlush().catch((error: unknown) => this.#reportOnce(error));
  }

  /** Sends everything queued and stops the exporter (failures go to `onError`). */
  async shutdown(): Promise<void> {
    const pipeline = await this.#pipeline;
    await pipeline?.processor.shutdown().catch((error: unknown) => this.#reportOnce(error));
  }

  /** Reports an error unless the export callback already did (the processor rethrows it). */
  #reportOnce(error: unknown): void {
    if (error !== this.#lastReported) this.#report(error instanceof Error ? error : new Error(String(error)));
  }

  #report(error: Error): void {
    this.#lastReported = error;
    if (this.#options.onError !== undefined) {
      this.#options.onError(error);
      return;
    }
    if (this.#warned) return;
    this.#warned = true;
    process.emitWarning(`OTLP export to ${this.url} failed: ${error.message}`, { code: 'AGENTLIB_OTLP_EXPORT' });
  }

  #ready(): Promise<Pipeline | undefined> {
    this.#pipeline ??= this.#load().catch((error: unknown) => {
      this.#report(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    });
    return this.#pipeline;
  }

  async #load(): Promise<Pipeline> {
    const protocol = this.#options.protocol ?? 'http/protobuf';
    const [sdk, resources, transport] = await Promise.all([
      loadOptional<typeof SdkTraceBase>('@opentelemetry/sdk-trace-base', 'OTLP trace export'),
      loadOptional<typeof Resources>('@opentelemetry/resources', 'OTLP trace export'),
      protocol === 'http/json'
        ? loadOptional<typeof OtlpHttp>('@opentelemetry/exporter-trace-otlp-http', 'OTLP/HTTP JSON trace export')
        : loadOptional<typeof OtlpProto>('@opentelemetry/exporter-trace-otlp-proto', 'OTLP/HTTP protobuf trace export'),
    ]);
    const inner = new transport.OTLPTraceExporter({
      url: this.url,
      ...(this.#options.headers === undefined ? {} : { headers: this.#options.headers }),
      timeoutMillis: this.#options.exportTimeoutMillis ?? 10_000,
    });
    const exporter: SpanExporter = {
      export: (spans, done) =>
        inner.export(spans, (result) => {
          if ((result.code as number) !== EXPORT_SUCCESS) this.#report(result.error ?? new Error('the collector refused the spans'));
          done(result);
        }),
      shutdown: () => inner.shutdown(),
      forceFlush: () => inner.forceFlush(),
    };
    const processor = new sdk.BatchSpanProcessor(exporter, {
      maxExportBatchSize: this.#options.maxExportBatchSize ?? 512,
      scheduledDelayMillis: this.#options.scheduledDelayMillis ?? 1_000,
      maxQueueSize: this.#options.maxQueueSize ?? 2_048,
      exportTimeoutMillis: this.#options.exportTimeoutMillis ?? 10_000,
    });
    const resource = resources.resourceFromAttributes({ 'service.name': this.#options.serviceName ?? 'agentlib' });
    return { processor, resource };
  }
}
