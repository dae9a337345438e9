import { mkdir, writeFile } from 'node:fs/promises';
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
 * `agentlib trace export <trace> [--otlp out.json] [--service-name name]`: writes the OTLP/JSON
 * request body to the file (creating its directory), or prints it to stdout without `--otlp`.
 */
export async function exportTrace(loaded: LoadedTrace, args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  if (loaded.trace.incomplete === true) io.stderr.write(`note: ${loaded.shown} is incomplete (its run did not finish it); exporting the ${loaded.trace.steps.length} step(s) written\n`);
  const serviceName = typeof args.serviceName === 'string' && args.serviceName !== '' ? args.serviceName : 'agentlib';
  const body = traceToOtlpJson(loaded.trace, { serviceName, scopeVersion: context.version });
  const text = `${JSON.stringify(body, null, 2)}\n`;
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
