import { parseStoreUrl } from '../../storage/store-url.js';
import type { HistoryStore } from './history-store.js';
import { MemoryHistoryStore } from './memory-history-store.js';
import { SqliteHistoryStore } from './sqlite-history-store.js';

/**
 * Opens the eval history named by a store URL: `memory://`, or `sqlite://` (default
 * `.agentlib/agentlib.db` under `cwd`), `sqlite://rel.db`, `sqlite:///abs.db`. Other schemes are a
 * StorageUrlError naming these two.
 */
export function openHistoryStore(url = 'sqlite://', options: { cwd?: string } = {}): HistoryStore {
  const location = parseStoreUrl(url, { allowed: ['memory', 'sqlite'], what: 'eval history store', ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  return location.scheme === 'memory' ? new MemoryHistoryStore() : new SqliteHistoryStore(location.path as string);
}
