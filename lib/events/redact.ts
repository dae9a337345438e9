import { REDACTED, scrubSecretText } from '../core/secret-text.js';

export { REDACTED };

/**
 * The words a credential key ends with (REFERENCE §7: `api[_-]?key|token|secret|password`, as
 * whole key names). Kept for compatibility; {@link isSecretKey} decides.
 */
export const SECRET_KEY_PATTERN = /api[_-]?key|token|secret|password|authorization/i;

/** Last words that make a key a credential: `token`, `accessToken`, `client_secret`, `password`, `authorization`, `apikey`. */
const CREDENTIAL_WORD = /(?:token|secret|password|passwd|passphrase|authorization|credentials?|apikey)$/;
/** `<word> key` pairs that name a credential: `apiKey`, `api_key`, `x-api-key`, `privateKey`, `secretAccessKey`. */
const KEY_QUALIFIER = new Set(['api', 'private', 'secret', 'access', 'signing', 'encryption', 'master']);

/** The words of a key, lower-cased: `promptTokens` → prompt, tokens; `X-API-Key` → x, api, key. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * True when the value under `key` must be hidden: the key names a credential as a whole (its last
 * word is `token`, `secret`, `password`, `authorization`, `credentials`, or it ends in `api key` /
 * `private key` …): `apiKey`, `api_key`, `X-API-Key`, `token`, `accessToken`, `authToken`,
 * `refresh_token`, `client_secret`, `password`, `Authorization`. Usage and size fields are never
 * secrets (`promptTokens`, `completionTokens`, `totalTokens`, `toolTokens`, `maxTokens`,
 * `max_tokens`, `tokenCount`: their last word is not a credential), and a finite number under a
 * `…token` key is a count, not a credential.
 */
export function isSecretKey(key: string, value?: unknown): boolean {
  const kind = credentialKind(key);
  if (kind === undefined) return false;
  return !(kind === 'token' && typeof value === 'number' && Number.isFinite(value));
}

/** Words any credential key contains; a key without them is decided without splitting it. */
const MAYBE_CREDENTIAL = /token|secret|passw|passphrase|auth|key|credential/i;
/** Keys already decided (events repeat the same few keys); bounded. */
const decided = new Map<string, 'token' | 'other' | undefined>();

/** Whether `key` names a credential: `token` when its last word ends in "token", `other` for any other credential, else undefined. */
function credentialKind(key: string): 'token' | 'other' | undefined {
  if (!MAYBE_CREDENTIAL.test(key)) return undefined;
  if (decided.has(key)) return decided.get(key);
  const parts = words(key);
  const last = parts[parts.length - 1];
  let kind: 'token' | 'other' | undefined;
  if (last !== undefined && (CREDENTIAL_WORD.test(last) || (last === 'key' && KEY_QUALIFIER.has(parts[parts.length - 2] ?? '')))) {
    kind = last.endsWith('token') ? 'token' : 'other';
  }
  if (decided.size >= 1000) decided.clear();
  decided.set(key, kind);
  return kind;
}

/**
 * A deep copy of `value` in which every property whose key is a credential (see `isSecretKey`)
 * has its value replaced by `'[REDACTED]'`, and every string shaped like a credential (`sk-…`,
 * `Bearer …`, `api_key=…`, see `scrubSecretText`) has it replaced, at any depth (objects and
 * arrays). Cycles become `'[Circular]'`; objects with a `toJSON` (Dates, AgentUsage, …) are
 * converted first. Never mutates its input.
 */
export function redactSecrets(value: unknown): unknown {
  return redact(value, []);
}

/**
 * A usage map such as `toolTokens` or `toolUsage` (`{ <tool name>: <count> }`): a `…tokens` /
 * `…usage` key holding only finite numbers. Copied as is: its keys are tool names, never
 * credentials (a tool called `reset_password` keeps its count).
 */
function isCountMap(key: string, value: unknown): value is Record<string, number> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !/(?:tokens|usage)$/i.test(key)) return false;
  for (const count of Object.values(value)) if (typeof count !== 'number' || !Number.isFinite(count)) return false;
  return true;
}

/**
 * `ancestors`: the objects being copied, outermost first; a value already on it is a cycle. (An
 * array used as a stack: cheaper than a WeakSet per call, and nesting is shallow.)
 */
function redact(value: unknown, ancestors: object[]): unknown {
  if (typeof value === 'string') return scrubSecretText(value);
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
      copy[key] = isSecretKey(key, item) ? REDACTED : isCountMap(key, item) ? { ...item } : redact(item, ancestors);
    }
    out = copy;
  }
  ancestors.pop();
  return out;
}
