import { checkStoreId } from '../../storage/index.js';

/** A run id a store may use as a file name or key: `[A-Za-z0-9_.-]{1,128}`, no `..` (REFERENCE.md §7); else InvalidStoreIdError. */
export function checkRunId(runId: string): string {
  return checkStoreId(runId, 'run id');
}
