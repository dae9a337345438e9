import { openDocumentBackend } from '../stores/open-document-backend.js';
import { SnapshotStore } from './snapshot-store.js';

/**
 * Opens the snapshots at a store URL: `file://dir` (the CLI's default is `__snapshots__` beside
 * the suite), `memory://`, `sqlite://path`, `redis://…`, `postgres://…`.
 */
export async function openSnapshotStore(url: string, options: { cwd?: string } = {}): Promise<SnapshotStore> {
  return new SnapshotStore(await openDocumentBackend(url, 'snapshot', { ...options, what: 'snapshot key', storeName: 'eval snapshot store' }));
}
