import { createHash } from 'node:crypto';

/** `text` as lowercase ASCII letters, digits and `-`, at most `max` characters (`x` when nothing is left). */
export function slugify(text: string, max: number): string {
  const s = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return s === '' ? 'x' : s;
}

/**
 * A stable file-name stem for a case: `<slug of the id>-<8 hex of SHA-256(id)>` (`refund-flow-3f2a9c1b`).
 * Readable, a valid store id whatever the case's name, and distinct for names that slug alike.
 */
export function caseFileStem(caseId: string): string {
  return `${slugify(caseId, 60)}-${createHash('sha256').update(caseId).digest('hex').slice(0, 8)}`;
}
