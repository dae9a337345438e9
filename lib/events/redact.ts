/** Keys whose values are secrets (API keys, tokens, passwords, auth headers). */
export const SECRET_KEY_PATTERN = /api[_-]?key|token|secret|password|authorization/i;

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

const OTHER_SECRET_WORDS = /api[_-]?key|secret|password|authorization/i;

/**
 * True when the value under `key` must be hidden. Token *counts* are not secrets: a finite number
 * under a key whose only secret-like word is "token" (`promptTokens`, `max_tokens`, `tokenCount`)
 * is kept; any other value under such a key (a string token, an object) is redacted.
 */
export function isSecretKey(key: string, value?: unknown): boolean {
  if (!SECRET_KEY_PATTERN.test(key)) return false;
  if (typeof value === 'number' && Number.isFinite(value) && !OTHER_SECRET_WORDS.test(key)) return false;
  return true;
}

/**
 * A deep copy of `value` in which every property whose key is a secret (see `isSecretKey`) has its
 * value replaced by `'[REDACTED]'`, at any depth (objects and arrays). Cycles become `'[Circular]'`;
 * objects with a `toJSON` (Dates, AgentUsage, …) are converted first. Never mutates its input.
 */
export function redactSecrets(value: unknown): unknown {
  return redact(value, new WeakSet());
}

function redact(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  const withJson = value as { toJSON?: unknown };
  if (typeof withJson.toJSON === 'function') {
    const converted: unknown = (withJson.toJSON as () => unknown).call(value);
    if (converted !== value) return redact(converted, seen);
  }
  seen.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item: unknown) => redact(item, seen));
  } else {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = isSecretKey(key, item) ? REDACTED : redact(item, seen);
    }
    out = copy;
  }
  seen.delete(value);
  return out;
}
