import { dirname, join } from 'node:path';
import { openSnapshotStore } from '../../lib/evals/snapshot/open-snapshot-store.js';
import { SnapshotSession } from '../../lib/evals/snapshot/snapshot-session.js';
import type { SuiteDefinition } from '../../lib/evals/types.js';
import { StorageError } from '../../lib/storage/errors/index.js';
import type { CliIO } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments } from '../command-module.js';

/** True when `CI` is set to something other than empty, `0` or `false`. */
export function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env['CI'];
  return !(ci === undefined || ci === '' || ci === '0' || ci === 'false');
}

/**
 * The snapshot session of `eval run`: opened when the suite has a `snapshot` assertion, on
 * `--snapshots <url>` or `file://<suite dir>/__snapshots__`; `--update-snapshots` rewrites changed
 * snapshots; under CI missing snapshots fail instead of being written. Either flag on a suite with
 * no snapshot assertion is a usage error (it would do nothing).
 */
export async function snapshotSessionFor(args: CommandArguments, definition: SuiteDefinition, suiteName: string, io: CliIO): Promise<SnapshotSession | undefined> {
  const uses = definition.cases.some((c) => c.assert.some((a) => a.type === 'snapshot'));
  const url = typeof args.snapshots === 'string' && args.snapshots !== '' ? args.snapshots : undefined;
  const update = args.updateSnapshots === true;
  if (!uses) {
    if (url !== undefined || update) throw new UsageError(`${url === undefined ? '--update-snapshots' : '--snapshots'}: the suite has no snapshot assertion (add - type: snapshot to a test's assert)`);
    return undefined;
  }
  let store;
  try {
    store = await openSnapshotStore(url ?? `file://${join(dirname(definition.source), '__snapshots__')}`, { cwd: io.cwd ?? process.cwd() });
  } catch (error) {
    if (StorageError.isInstance(error)) throw new UsageError(`--snapshots: ${error.message}`);
    throw error;
  }
  return new SnapshotSession(store, { suite: suiteName, update, ci: isCi(io.env) });
}

/**
 * After the run: the counts on stderr, and the snapshots no case used (only after a run of every
 * case that was not interrupted): removed with `--update-snapshots`, else listed.
 */
export async function finishSnapshots(session: SnapshotSession, io: CliIO, options: { fullRun: boolean; update: boolean }): Promise<{ obsolete: string[]; removed: boolean }> {
  try {
    const c = session.counts;
    io.stderr.write(`snapshots: ${c.matched} matched, ${c.written} written, ${c.updated} updated, ${c.failed} failed (${session.store.where})\n`);
    if (!options.fullRun) return { obsolete: [], removed: false };
    const obsolete = options.update ? await session.removeObsolete() : await session.obsolete();
    if (obsolete.length > 0) io.stderr.write(options.update ? `removed ${obsolete.length} obsolete snapshot(s): ${obsolete.join(', ')}\n` : `${obsolete.length} obsolete snapshot(s) no case uses (--update-snapshots removes them): ${obsolete.join(', ')}\n`);
    return { obsolete, removed: options.update };
  } finally {
    await session.store.close();
  }
}
