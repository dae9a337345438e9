import { isSecretKey, REDACTED } from '../../events/redact.js';
import { MIN_SECRET_VALUE_LENGTH } from '../../core/secret-text.js';

/** Environment variables whose values are secrets (keys, tokens, passwords). */
const SECRET_ENV = /api[_-]?key|token|secret|password|credential/i;

/**
 * Makes values safe to store: properties under secret-looking keys become `[REDACTED]` (as in
 * traces), and any occurrence of the value of a secret environment variable, or of one of the
 * variables named in `scrubEnv` (those interpolated into the agent's config), inside a string
 * becomes `[REDACTED:NAME]`. Deterministic for a given environment, so recorded and live requests
 * scrub the same way and still match on replay, whatever the variables' values are then.
 */
export class SecretScrubber {
  readonly #secrets: readonly (readonly [name: string, value: string])[];
  readonly #redactKeys: boolean;

  /**
   * @param env where secret values come from (default `process.env`)
   * @param redactKeys also redact values under secret-looking keys (default true)
   * @param scrubEnv more variables whose values are scrubbed, whatever their names
   */
  constructor(env: Readonly<Record<string, string | undefined>> = process.env, redactKeys = true, scrubEnv: readonly string[] = []) {
    this.#redactKeys = redactKeys;
    const named = new Set(scrubEnv);
    this.#secrets = Object.entries(env)
      .filter((entry): entry is [string, string] => (SECRET_ENV.test(entry[0]) || named.has(entry[0])) && typeof entry[1] === 'string' && entry[1].length >= MIN_SECRET_VALUE_LENGTH)
      // Longest first, so a value containing another secret is replaced whole.
      .sort((a, b) => b[1].length - a[1].length);
  }

  /** A scrubbed deep copy of a JSON-compatible value (undefined properties dropped). */
  scrub(value: unknown): unknown {
    if (typeof value === 'string') return this.#text(value);
    if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : this.scrub(item)));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === 'function') continue;
      out[key] = this.#redactKeys && isSecretKey(key, item) ? REDACTED : this.scrub(item);
    }
    return out;
  }

  #text(text: string): string {
    let out = text;
    for (const [name, value] of this.#secrets) if (out.includes(value)) out = out.split(value).join(`[REDACTED:${name}]`);
    return out;
  }
}
