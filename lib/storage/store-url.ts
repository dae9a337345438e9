import { isAbsolute, resolve } from 'node:path';
import { StorageUrlError } from './errors/storage-url-error.js';

/** The kinds of store a URL can name. */
export type StoreScheme = 'memory' | 'file' | 'sqlite' | 'redis' | 'postgres' | 'lancedb';

/** Every scheme, in the order error messages list them. */
export const STORE_SCHEMES: readonly StoreScheme[] = ['memory', 'file', 'sqlite', 'redis', 'postgres', 'lancedb'];

/** The SQLite file of a project when a URL names none: `sqlite://` → `<cwd>/.agentlib/agentlib.db`. */
export const DEFAULT_SQLITE_FILE = '.agentlib/agentlib.db';

/** Where a store lives, parsed from its URL. */
export interface StoreLocation {
  scheme: StoreScheme;
  /** The URL as given (for redis/postgres: what the driver connects to). */
  url: string;
  /** `file`, `sqlite`, `lancedb`: the absolute path of the directory or database file. */
  path?: string;
}

/** Options of {@link parseStoreUrl}. */
export interface ParseStoreUrlOptions {
  /** The schemes this store accepts; another is refused with a StorageUrlError naming these. */
  allowed?: readonly StoreScheme[];
  /** What the URL is for, in error messages: `session store`, `checkpoint store`. Default `store`. */
  what?: string;
  /** The directory relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
}

const PREFIXES: readonly (readonly [string, StoreScheme])[] = [
  ['memory:', 'memory'],
  ['file:', 'file'],
  ['sqlite:', 'sqlite'],
  ['redis:', 'redis'],
  ['rediss:', 'redis'],
  ['postgres:', 'postgres'],
  ['postgresql:', 'postgres'],
  ['lancedb:', 'lancedb'],
];

/** The URL without a password, for messages: `postgres://user:***@host/db`. */
export function redactStoreUrl(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

/**
 * Parses a store URL (DESIGN.md §4): `memory://`, `file://dir`, `sqlite://path` (bare `sqlite://`
 * is the project's `.agentlib/agentlib.db`; `sqlite:///abs/file.db` is absolute), `redis://…` /
 * `rediss://…`, `postgres://…` / `postgresql://…`, `lancedb://dir`. Relative paths resolve against
 * `cwd`. A scheme outside `allowed`, or a malformed URL, is a StorageUrlError that says what works.
 */
export function parseStoreUrl(url: string, options: ParseStoreUrlOptions = {}): StoreLocation {
  const what = options.what ?? 'store';
  const allowed = options.allowed ?? STORE_SCHEMES;
  const text = url.trim();
  const shown = redactStoreUrl(text);
  const match = PREFIXES.find(([prefix]) => text.toLowerCase().startsWith(prefix));
  const accepted = allowed.map((scheme) => `${scheme}://`).join(', ');
  if (match === undefined) {
    throw new StorageUrlError({ url: shown, message: `${what} URL ${JSON.stringify(shown)} has no known scheme: use one of ${accepted}` });
  }
  const [prefix, scheme] = match;
  if (!allowed.includes(scheme)) {
    throw new StorageUrlError({ url: shown, message: `${what} URL ${JSON.stringify(shown)}: a ${scheme} store cannot be used here; use one of ${accepted}` });
  }
  const rest = text.slice(prefix.length);
  const cwd = options.cwd ?? process.cwd();
  switch (scheme) {
    case 'memory':
      if (rest !== '' && rest !== '//') throw new StorageUrlError({ url: shown, message: `${what} URL ${JSON.stringify(shown)}: memory:// takes no path` });
      return { scheme, url: 'memory://' };
    case 'redis':
    case 'postgres':
      try {
        const parsed = new URL(text);
        if (parsed.hostname === '' && scheme === 'redis') throw new Error('no host');
      } catch {
        throw new StorageUrlError({ url: shown, message: `${what} URL ${JSON.stringify(shown)} is not a valid ${scheme} URL (${scheme}://user:password@host:port/${scheme === 'redis' ? '0' : 'database'})` });
      }
      return { scheme, url: text };
    case 'file':
    case 'sqlite':
    case 'lancedb': {
      const raw = rest.startsWith('//') ? rest.slice(2) : rest;
      const decoded = decodeURIComponent(raw);
      if (decoded.includes('\0')) throw new StorageUrlError({ url: shown, message: `${what} URL ${JSON.stringify(shown)}: the path contains a NUL byte` });
      if (decoded === '') {
        if (scheme !== 'sqlite') throw new StorageUrlError({ url: shown, message: `${what} URL ${JSON.stringify(shown)} names no directory: ${scheme}://path/to/dir` });
        return { scheme, url: text, path: resolve(cwd, DEFAULT_SQLITE_FILE) };
      }
      const path = decoded === ':memory:' ? ':memory:' : isAbsolute(decoded) ? decoded : resolve(cwd, decoded);
      return { scheme, url: text, path };
    }
  }
}
