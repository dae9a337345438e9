import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { ResponseFormatSpec } from '../providers/spec.js';
import { tool } from '../tools/tool.js';
import type { Tool } from '../tools/types.js';
import type { ResponseFormat } from './types.js';

/** A responseFormat ready for a run: the provider-facing spec and a validator. */
export interface PreparedResponseFormat {
  spec: ResponseFormatSpec;
  /** Parses the model's text as JSON and validates it. */
  check(text: string): Promise<{ ok: true; value: unknown } | { ok: false; issues: string[] }>;
}

const cache = new WeakMap<object, PreparedResponseFormat>();

/**
 * Prepares a zod / Standard Schema / JSON Schema response format. The schema goes through the same
 * conversion and validation (with coercion) as tool parameters, so it must describe an object.
 */
export function prepareResponseFormat(format: ResponseFormat): PreparedResponseFormat {
  const known = cache.get(format);
  if (known) return known;
  let validator: Tool<unknown>;
  try {
    validator = tool({ name: 'structured_output', description: 'Structured output of the final answer.', parameters: format, execute: () => undefined });
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^.*?structured_output"?:?\s*/, '') : String(error);
    throw new ConfigurationError(
      `responseFormat must describe a JSON object (wrap arrays or values in an object, e.g. z.object({ items: z.array(…) })): ${why}`,
      { key: 'responseFormat', cause: error },
    );
  }
  const prepared: PreparedResponseFormat = {
    spec: { type: 'json_schema', name: 'structured_output', schema: validator.parameters },
    async check(text) {
      const json = extractJson(text);
      if (!json.ok) return { ok: false, issues: [json.error] };
      const result = await validator.validateArgs(json.value);
      if (result.ok) return { ok: true, value: result.value };
      const issues = result.error.issues.map((issue) =>
        issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      );
      return { ok: false, issues: issues.length > 0 ? issues : [result.error.message] };
    },
  };
  cache.set(format, prepared);
  return prepared;
}

/** Finds the JSON value in a reply: the whole text, a fenced ```json block, or the outermost {…}. */
export function extractJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const candidates: string[] = [text.trim()];
  const fence = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(text);
  if (fence?.[1]) candidates.push(fence[1].trim());
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  if (first >= 0 && last > first) candidates.push(text.slice(first, last + 1));
  let lastError = 'the reply is empty';
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return { ok: true, value: JSON.parse(candidate) as unknown };
    } catch (error) {
      lastError = `the reply is not valid JSON (${(error as Error).message})`;
    }
  }
  return { ok: false, error: lastError };
}

/** The message sent back to the model when its structured output was invalid. */
export function structuredRetryMessage(issues: readonly string[]): string {
  return (
    'Your reply did not match the required JSON schema:\n' +
    issues.map((issue) => `- ${issue}`).join('\n') +
    '\nReply again with only a JSON value that matches the schema.'
  );
}
