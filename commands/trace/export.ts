import { mkdir, writeFile } from 'node:fs/promises';
import { AgentlibError } from '../../lib/core/errors/agentlib-error.js';
import { dirname, resolve } from 'node:path';
import { toOtlpTraceRequest, type OtlpTraceRequest } from '../../lib/trace/otel-types.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { shownPath, type LoadedTrace } from './resolve-trace.js';

/** Options of `traceToOtlpJson`. */
export interface OtlpExportOptions {
  /** The `service.name` resource attribute. Default `agentlib`. */
  serviceName?: string;
  /** The instrumentation scope version (agentlib's version). */
  scopeVersion?: string;
}

/**
 * A trace as an OTLP/JSON `ExportTraceServiceRequest` (the body of `POST /v1/traces`):
 * `resourceSpans[].scopeSpans[].spans[]`, ids as lowercase hex, times as unix-nano strings and
 * gen_ai.* attributes as OTLP key/value objects.
 */
export function traceToOtlpJson(trace: AgentTrace, options: OtlpExportOptions = {}): OtlpTraceRequest {
  return toOtlpTraceRequest(trace.toOtelSpans(), {
    serviceName: options.serviceName ?? 'agentlib',
    ...(options.scopeVersion === undefined ? {} : { scopeVersion: options.scopeVersion }),
  });
}

/**
 * `agentlib trace export <trace> [--otlp out.json | --otlp http://collector:4318] [--service-name name]`:
 * writes the OTLP/JSON request body to the file (creating its directory), prints it to stdout
 * without `--otlp`, or sends it to a collector when `--otlp` is an http(s) URL.
 */
export async function exportTrace(loaded: LoadedTrace, args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  if (loaded.trace.incomplete === true) io.stderr.write(`note: ${loaded.shown} is incomplete (its run did not finish it); exporting the ${loaded.trace.steps.length} step(s) written\n`);
  const serviceName = typeof args.serviceName === 'string' && args.serviceName !== '' ? args.serviceName : 'agentlib';
  const body = traceToOtlpJson(loaded.trace, { serviceName, scopeVersion: context.version });
  const text = `${JSON.stringify(body, null, 2)}\n`;
  if (typeof args.otlp === 'string' && /^https?:\/\//i.test(args.otlp)) return sendTrace(loaded, args.otlp, serviceName, args, context);
  const out = typeof args.otlp === 'string' && args.otlp !== '' && args.otlp !== '-' ? args.otlp : undefined;
  if (out === undefined) {
    io.stdout.write(text);
    return 0;
  }
  const cwd = io.cwd ?? process.cwd();
  const path = resolve(cwd, out);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text, 'utf8');
  const spans = body.resourceSpans[0]?.scopeSpans[0]?.spans.length ?? 0;
  io.stderr.write(`wrote ${spans} span(s) of ${loaded.shown} to ${shownPath(path, cwd)}\n`);
  return 0;
}

/**
 * `agentlib trace export <trace> --otlp http://collector:4318`: sends the trace's spans to the
 * collector with the OtlpTraceExporter (OTLP/HTTP protobuf, or JSON with `--otlp-protocol json`;
 * the OpenTelemetry exporter retries 429/502/503/504). A failed export exits 3.
 */
async function sendTrace(loaded: LoadedTrace, url: string, serviceName: string, args: CommandArguments, context: CommandContext): Promise<number> {
  const { OtlpTraceExporter } = await import('../../lib/trace/otlp/otlp-trace-exporter.js');
  const protocol = args.otlpProtocol === 'json' ? 'http/json' : 'http/protobuf';
  const errors: Error[] = [];
  const exporter = new OtlpTraceExporter({ url, protocol, serviceName, scopeVersion: context.version, onError: (error) => errors.push(error) });
  exporter.exportTrace(loaded.trace);
  await exporter.shutdown();
  const [error] = errors;
  if (error !== undefined) throw new AgentlibError(`OTLP export of ${loaded.shown} to ${exporter.url} failed: ${error.message}`, { cause: error });
  context.io.stderr.write(`sent ${exporter.queuedSpans} span(s) of ${loaded.shown} to ${exporter.url} (${protocol})\n`);
  return 0;
}
