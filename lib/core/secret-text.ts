/** What a secret found in text is replaced with. */
export const REDACTED = '[REDACTED]';

/** Known values shorter than this are not scrubbed from text (they would match by chance). */
export const MIN_SECRET_VALUE_LENGTH = 8;

/**
 * Text shaped like a credential, whatever it sits in: an `Authorization` scheme with its token
 * (the scheme is kept), well-known key formats (OpenAI and Anthropic `sk-…`, Google `AIza…`,
 * GitHub `ghp_…`, Slack `xox?-…`, AWS access key ids), a credential assignment in a header, a
 * query string or JSON (`api_key=…`, `"x-api-key": "…"`, `authorization: …`, `access_token=…`, `password: …`), and
 * the password of a URL's user info. Bearer tokens need a digit, so prose ("Bearer bonds") stays.
 */
const SHAPES = new RegExp(
  [
    String.raw`\b(Bearer|Basic)(\s+)(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}`,
    String.raw`\bsk-[A-Za-z0-9_-]{12,}`,
    String.raw`\bAIza[0-9A-Za-z_-]{30,}`,
    String.raw`\bgh[pousr]_[A-Za-z0-9]{20,}`,
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    String.raw`((?:x-)?(?:goog-)?api[_-]?key|authorization|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|password|passwd)(["']?\s*[:=]\s*["']?)(?!\[REDACTED|Bearer\b|Basic\b)[^\s"'&,;}\]]{4,}`,
    String.raw`(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"']+:)[^\s/@"']+@`,
  ].join('|'),
  'gi',
);

/** A quick test before SHAPES: text without any of these cannot match it (most text has none). */
const MAYBE = /bearer|basic|sk-|aiza|gh[pousr]_|xox|akia|asia|api[_-]?key|authorization|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|passw|:\/\//i;

/** What a match of SHAPES becomes: the scheme, the key name or the URL's user kept, the secret replaced. */
function replaceShape(_match: string, scheme?: string, space?: string, name?: string, assign?: string, user?: string): string {
  if (scheme !== undefined) return `${scheme}${space ?? ' '}${REDACTED}`;
  if (name !== undefined) return `${name}${assign ?? ''}${REDACTED}`;
  if (user !== undefined) return `${user}${REDACTED}@`;
  return REDACTED;
}

/**
 * `text` with every credential removed: each of the `known` values (configured API keys, tokens;
 * those shorter than 8 characters are ignored) and anything shaped like a credential (see above)
 * become `[REDACTED]`. Deterministic and idempotent.
 */
export function scrubSecretText(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const value of known) {
    if (value.length >= MIN_SECRET_VALUE_LENGTH && out.includes(value)) out = out.split(value).join(REDACTED);
  }
  return MAYBE.test(out) ? out.replace(SHAPES, replaceShape) : out;
}

/** The values of `known` worth scrubbing (set, long enough, no duplicates), longest first. */
export function secretValues(known: readonly (string | null | undefined)[]): string[] {
  const values = new Set<string>();
  for (const value of known) if (typeof value === 'string' && value.length >= MIN_SECRET_VALUE_LENGTH) values.add(value);
  // Longest first, so a value containing another one is replaced whole.
  return [...values].sort((a, b) => b.length - a.length);
}
