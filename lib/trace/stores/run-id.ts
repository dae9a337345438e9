import { ConfigurationError } from '../../core/errors/configuration-error.js';

/** A run id a store may use as a file name or key: `[A-Za-z0-9_.-]{1,128}`, no `..` (REFERENCE.md §7). */
export function checkRunId(runId: string): string {
  if (typeof runId === 'string' && /^[A-Za-z0-9_.-]{1,128}$/.test(runId) && !runId.includes('..')) return runId;
  throw new ConfigurationError(`invalid run id ${JSON.stringify(runId)}: expected 1-128 characters of A-Z a-z 0-9 _ . - (no "..")`, { key: 'runId' });
}
