import { parseStoreUrl } from '../../storage/store-url.js';
import { FileCheckpointStore } from './file-store.js';
import { InMemoryCheckpointStore } from './memory-store.js';
import type { CheckpointStore } from './types.js';

/**
 * The checkpoint store a URL names: `memory://`, `file://dir`, `sqlite://path` (bare `sqlite://`:
 * `.agentlib/agentlib.db`), `postgres://…`. SQLite and PostgreSQL load their drivers on demand.
 */
export async function openCheckpointStore(url: string, options: { cwd?: string } = {}): Promise<CheckpointStore> {
  const location = parseStoreUrl(url, { allowed: ['memory', 'file', 'sqlite', 'postgres'], what: 'checkpoint store', ...options });
  switch (location.scheme) {
    case 'memory':
      return new InMemoryCheckpointStore();
    case 'file':
      return new FileCheckpointStore(location.path as string);
    case 'sqlite': {
      const { SQLiteCheckpointStore } = await import('./sqlite-store.js');
      return new SQLiteCheckpointStore(location.path as string);
    }
    default: {
      const { PostgresCheckpointStore } = await import('./postgres-store.js');
      return PostgresCheckpointStore.open(location.url);
    }
  }
}
