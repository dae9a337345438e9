import { join } from 'node:path';
import { parseStoreUrl } from '../../storage/store-url.js';
import type { DocumentBackend } from './document-backend.js';
import { FileDocumentBackend } from './file-document-backend.js';
import { MemoryDocumentBackend } from './memory-document-backend.js';

/** The URL schemes the eval document stores (baselines, snapshots) accept. */
export const EVAL_STORE_SCHEMES = ['memory', 'file', 'sqlite', 'redis', 'postgres'] as const;

/**
 * Opens the collection `kind` at a store URL: `memory://`, `file://dir` (a `<kind>` folder is not
 * added: the directory holds the documents), `sqlite://path` (default `.agentlib/agentlib.db`),
 * `redis://…`, `postgres://…`. Drivers load on demand; another scheme is a StorageUrlError.
 */
export async function openDocumentBackend(url: string, kind: string, options: { cwd?: string; what: string; storeName: string }): Promise<DocumentBackend> {
  const location = parseStoreUrl(url, { allowed: [...EVAL_STORE_SCHEMES], what: options.storeName, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  switch (location.scheme) {
    case 'memory':
      return new MemoryDocumentBackend(options.what);
    case 'file':
      return new FileDocumentBackend(join(location.path as string), options.what);
    case 'sqlite': {
      const { SqliteDocumentBackend } = await import('./sqlite-document-backend.js');
      return new SqliteDocumentBackend(location.path as string, kind, options.what);
    }
    case 'redis': {
      const { RedisDocumentBackend } = await import('./redis-document-backend.js');
      return new RedisDocumentBackend(location.url, kind, { what: options.what });
    }
    default: {
      const { PostgresDocumentBackend } = await import('./postgres-document-backend.js');
      return PostgresDocumentBackend.open(location.url, kind, options.what);
    }
  }
}
