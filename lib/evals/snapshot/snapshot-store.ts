import { decodeRecord, encodeRecord } from '../../storage/record.js';
import { caseFileStem, slugify } from '../case-file-name.js';
import type { DocumentBackend } from '../stores/document-backend.js';
import type { SnapshotSubject } from '../types.js';

/** The record kind and version of a stored snapshot. */
export const SNAPSHOT_RECORD = { kind: 'eval-snapshot', version: 1 } as const;

export type { SnapshotSubject } from '../types.js';

/** One stored snapshot. */
export interface Snapshot {
  suite: string;
  caseId: string;
  subject: SnapshotSubject;
  /** The snapshotted text. */
  value: string;
  /** When it was written (ISO 8601). */
  savedAt: string;
}

/** The key prefix of every snapshot of `suite`: `<suite slug>.`. */
export function snapshotPrefix(suite: string): string {
  return `${slugify(suite, 40)}.`;
}

/**
 * The stable store id of a case's snapshot: `<suite slug>.<case slug>-<8 hex of SHA-256(case id)>`,
 * plus `.tool-calls` for a tool-call snapshot. Readable as a file name, a valid store id whatever
 * the case's name, and distinct for case names that slug alike.
 */
export function snapshotKey(suite: string, caseId: string, subject: SnapshotSubject = 'output'): string {
  return `${snapshotPrefix(suite)}${caseFileStem(caseId)}${subject === 'output' ? '' : `.${subject}`}`;
}

/**
 * Output snapshots of eval cases by key ({@link snapshotKey}), over any eval store URL (memory,
 * file, SQLite, Redis, PostgreSQL; see {@link openSnapshotStore}). A file store keeps one
 * pretty-printed `<key>.json` per snapshot, to be committed and reviewed in diffs. Records are
 * versioned (`eval-snapshot` v1); keys are store ids (InvalidStoreIdError otherwise).
 */
export class SnapshotStore {
  readonly #backend: DocumentBackend;

  constructor(backend: DocumentBackend) {
    this.#backend = backend;
  }

  /** Where the snapshots live (for messages). */
  get where(): string {
    return this.#backend.where;
  }

  async get(key: string): Promise<Snapshot | undefined> {
    const text = await this.#backend.get(key);
    return text === undefined ? undefined : decodeRecord<Snapshot>(text, { ...SNAPSHOT_RECORD, where: `snapshot "${key}" in ${this.where}` });
  }

  async put(key: string, snapshot: Snapshot): Promise<void> {
    // Validated by encodeRecord (strict JSON), then indented so a changed snapshot reads well in a diff.
    const text = `${JSON.stringify(JSON.parse(encodeRecord(SNAPSHOT_RECORD.kind, SNAPSHOT_RECORD.version, snapshot)), null, 2)}\n`;
    await this.#backend.put(key, text);
  }

  delete(key: string): Promise<boolean> {
    return this.#backend.delete(key);
  }

  /** Every key, sorted (with `prefix`, only those starting with it). */
  async keys(prefix = ''): Promise<string[]> {
    return (await this.#backend.list()).filter((key) => key.startsWith(prefix));
  }

  close(): Promise<void> {
    return this.#backend.close();
  }
}
