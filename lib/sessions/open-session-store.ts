import { parseStoreUrl } from '../storage/index.js';
import type { SessionStoreOptions } from './base-session-store.js';
import { JsonFileSessionStore } from './json-file-session-store.js';
import { MemorySessionStore } from './memory-session-store.js';
import { RedisSessionStore } from './redis-session-store.js';
import { SQLiteSessionStore } from './sqlite-session-store.js';
import type { SessionStore } from './types.js';

/** The URL schemes a session store may use. */
export const SESSION_STORE_SCHEMES = ['memory', 'file', 'sqlite', 'redis'] as const;

/** The default session store: the project's SQLite file. */
export const DEFAULT_SESSION_STORE_URL = 'sqlite://';

/**
 * Opens the session store a URL names: `memory://`, `file://dir` (JSON files), `sqlite://path`
 * (default `.agentlib/agentlib.db`), `redis://…` / `rediss://…`. Any other scheme is a
 * StorageUrlError naming these.
 *
 * @example
 * const store = openSessionStore('redis://127.0.0.1:6379', { namespace: 'support-bot', defaultTtl: 86_400 });
 */
export function openSessionStore(url: string, options: SessionStoreOptions & { cwd?: string } = {}): SessionStore {
  const { cwd, ...storeOptions } = options;
  const location = parseStoreUrl(url, { allowed: [...SESSION_STORE_SCHEMES], what: 'session store', ...(cwd === undefined ? {} : { cwd }) });
  switch (location.scheme) {
    case 'memory':
      return new MemorySessionStore(storeOptions);
    case 'file':
      return new JsonFileSessionStore({ ...storeOptions, directory: location.path! });
    case 'sqlite':
      return new SQLiteSessionStore({ ...storeOptions, path: location.path! });
    case 'redis':
      return new RedisSessionStore({ ...storeOptions, url: location.url });
    default:
      throw new Error(`unreachable: ${location.scheme}`);
  }
}
