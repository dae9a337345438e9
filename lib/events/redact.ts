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
  // The objects being copied, outermost first: a value already on it is a cycle. (An array used
  // as a stack: cheaper than a WeakSet per call, and nesting is shallow.)
  return typeof value !== 'object' || value === null ? value : redact(value, []);
}

function redact(value: unknown, ancestors: object[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value)) return '[Circular]';
  const withJson = value as { toJSON?: unknown };
  if (typeof withJson.toJSON === 'function') {
    const converted: unknown = (withJson.toJSON as () => unknown).call(value);
    if (converted !== value) return redact(converted, ancestors);
  }
  ancestors.push(value);
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map((item: unknown) => redact(item, ancestors));
  } else {
    const copy: Record<string, unknown> = {};
    const record = value as Record<string, unknown>;
    // Own enumerable string keys in Object.entries order, without an [key, value] array per entry.
    const keys = Object.keys(record);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = record[key];
      copy[key] = isSecretKey(key, item) ? REDACTED : redact(item, ancestors);
    }
    out = copy;
  }
  ancestors.pop();
  return out;
}
