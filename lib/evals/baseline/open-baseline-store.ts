import { openDocumentBackend } from '../stores/open-document-backend.js';
import { BaselineStore } from './baseline-store.js';

/**
 * Opens the baselines at a store URL: `memory://`, `file://dir` (one `<name>.json` per baseline),
 * `sqlite://path` (bare `sqlite://`: `.agentlib/agentlib.db`), `redis://…`, `postgres://…`.
 *
 * @example
 * const baselines = await openBaselineStore('sqlite://');
 * await baselines.save('main', report);
 * const regression = compareReports((await baselines.get('main'))!, next);
 */
export async function openBaselineStore(url = 'sqlite://', options: { cwd?: string } = {}): Promise<BaselineStore> {
  return new BaselineStore(await openDocumentBackend(url, 'baseline', { ...options, what: 'baseline name', storeName: 'eval baseline store' }));
}
