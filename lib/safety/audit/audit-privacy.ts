import { createHash } from 'node:crypto';
import { scrubSecretText } from '../../core/secret-text.js';
import { isSecretKey, REDACTED, redactSecrets } from '../../events/redact.js';
import type { AuditPrivacy } from './audit-types.js';

/** The first 16 hex characters of the SHA-256 of `text`. */
export function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function canonical(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

/**
 * Arguments as the privacy level allows: `full` → the values with secrets redacted; `keys_only` →
 * the key names; `hashed` → each value's short hash (secret keys redacted, not hashed); `none` →
 * undefined (the field is left out).
 */
export function privateArgs(args: Record<string, unknown>, privacy: AuditPrivacy): unknown {
  switch (privacy) {
    case 'full':
      return redactSecrets(args);
    case 'keys_only':
      return Object.keys(args);
    case 'hashed':
      return Object.fromEntries(Object.entries(args).map(([key, value]) => [key, isSecretKey(key, value) ? REDACTED : shortHash(canonical(value))]));
    case 'none':
      return undefined;
  }
}

/**
 * A text (input, answer, tool result) as the privacy level allows: `full` → the text with
 * secret-shaped strings scrubbed; `hashed` → its short hash; `keys_only` and `none` → undefined
 * (the record keeps only its length).
 */
export function privateText(text: string, privacy: AuditPrivacy): string | undefined {
  switch (privacy) {
    case 'full':
      return scrubSecretText(text);
    case 'hashed':
      return shortHash(text);
    default:
      return undefined;
  }
}
