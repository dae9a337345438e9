import type { AgentResult } from '../../lib/agent/result.js';
import { serializeError } from '../../lib/events/serialized-error.js';
import { redactSecrets } from '../../lib/events/redact.js';

/** The `--output-format json` document of a run (the CLI adds `version`). */
export function resultDocument(result: AgentResult | undefined, tracePath: string | undefined, error?: unknown): Record<string, unknown> {
  const document: Record<string, unknown> = {
    runId: result?.runId ?? null,
    status: error === undefined ? (result?.status ?? 'error') : 'error',
    content: result?.content ?? '',
    toolCalls: redactSecrets((result?.toolCalls ?? []).map((call) => ({ id: call.id, toolName: call.toolName, parameters: call.parameters }))),
    iterations: result?.iterations ?? 0,
    usage: result?.usage.toJSON() ?? null,
    model: result?.model ?? null,
    provider: result?.providerUsed ?? null,
    durationMs: result?.durationMs ?? 0,
    trace: tracePath ?? null,
  };
  if (result?.reasoning) document.reasoning = result.reasoning;
  if (error !== undefined) document.error = serializeError(error);
  return document;
}
