import { relative, resolve, isAbsolute, sep } from 'node:path';
import { InvalidStoreIdError } from './errors/invalid-store-id-error.js';

/** The ids a store accepts (REFERENCE.md §7): letters, digits, `_`, `.`, `-`; 1–128 characters. */
export const STORE_ID_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Returns `id` when a store may use it as a key or a file name (REFERENCE.md §7): it matches
 * {@link STORE_ID_PATTERN}, does not contain `..` and is not `.`; otherwise throws
 * InvalidStoreIdError naming `what` (`session id`, `thread id`).
 */
export function checkStoreId(id: unknown, what = 'id'): string {
  if (typeof id !== 'string') throw new InvalidStoreIdError({ what, id: String(id), reason: 'it must be a string' });
  if (id.length === 0) throw new InvalidStoreIdError({ what, id, reason: 'it is empty' });
  if (id.length > 128) throw new InvalidStoreIdError({ what, id, reason: `it is ${id.length} characters long (at most 128)` });
  if (!STORE_ID_PATTERN.test(id)) throw new InvalidStoreIdError({ what, id, reason: 'only letters A-Z a-z, digits, "_", "." and "-" are allowed' });
  if (id.includes('..') || id === '.') throw new InvalidStoreIdError({ what, id, reason: 'it must not contain ".." or be "."' });
  return id;
}

/**
 * The absolute path of `name` inside `baseDir`, refusing any name whose resolved path leaves the
 * directory (a second check behind {@link checkStoreId}, so a file store never writes outside it).
 */
export function resolveInside(baseDir: string, name: string, what = 'id'): string {
  const base = resolve(baseDir);
  const path = resolve(base, name);
  const rel = relative(base, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..')) {
    throw new InvalidStoreIdError({ what, id: name, reason: `it resolves outside ${base}` });
  }
  return path;
}
