import { ProviderError } from '../core/errors/provider-error.js';
import { scrubSecretText, secretValues } from '../core/secret-text.js';

/** How deep the cause chain and the fields of each cause are scrubbed. */
const MAX_DEPTH = 6;

function isPlain(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || proto === Object.prototype || proto === null;
}

/**
 * Scrubs the strings of a plain object or array in place (SDK error bodies: `error.error`), or the
 * own fields of an error, less `skip` (its cause, which the caller walks).
 */
function scrubFields(target: object, known: readonly string[], depth: number, skip?: string): void {
  if (depth > MAX_DEPTH) return;
  const record = target as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === skip) continue;
    const value = record[key];
    if (typeof value === 'string') {
      const clean = scrubSecretText(value, known);
      if (clean !== value) record[key] = clean;
    } else if (isPlain(value)) {
      scrubFields(value, known, depth + 1);
    }
  }
}

/** Scrubs one error in place: message, stack and its own string fields (an SDK error's body, code, …). */
function scrubError(error: Error, known: readonly string[]): void {
  for (const key of ['message', 'stack'] as const) {
    const value = error[key];
    if (typeof value !== 'string') continue;
    const clean = scrubSecretText(value, known);
    if (clean !== value) Object.defineProperty(error, key, { value: clean, writable: true, configurable: true, enumerable: false });
  }
  scrubFields(error, known, 0, 'cause');
}

/**
 * Removes credentials from the failure an adapter is about to throw — once, where the error is
 * made, so no sink (HTTP 502 body, SSE error frame, cassette, trace, CLI stderr, server log, a
 * `--debug` stack) can leak them. Every `credentials` value (the configured API key, auth token,
 * …) and anything shaped like a credential (`sk-…`, `Bearer …`, `api_key=…`, see
 * `scrubSecretText`) becomes `[REDACTED]` in the ProviderError's message and stack and in the
 * messages, stacks and string fields of its cause chain (the SDK's error and its body), in place.
 * Anything that is not a ProviderError (the caller's abort reason) is returned untouched.
 */
export function scrubProviderFailure(error: unknown, credentials: readonly (string | null | undefined)[]): unknown {
  if (!ProviderError.isInstance(error)) return error;
  const known = secretValues(credentials);
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
    scrubError(current, known);
    current = current.cause;
  }
  return error;
}
