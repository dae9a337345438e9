import type { CheckOutcome, SnapshotChecker, SnapshotSubject } from '../types.js';
import { snapshotKey, snapshotPrefix, type SnapshotStore } from './snapshot-store.js';

/** Options of a {@link SnapshotSession}. */
export interface SnapshotSessionOptions {
  /** The suite's stable name (the CLI uses the suite file's name): the snapshot keys' prefix. */
  suite: string;
  /** Rewrite snapshots that differ (`--update-snapshots`) instead of failing the case. */
  update?: boolean;
  /**
   * CI mode: a case with no stored snapshot fails instead of writing one (a CI run must not pass
   * by recording what it sees). `update` still writes. Default false.
   */
  ci?: boolean;
  now?: () => number;
}

/** What a session did. */
export interface SnapshotCounts {
  matched: number;
  written: number;
  updated: number;
  failed: number;
}

function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `line ${i + 1}: expected ${JSON.stringify(a[i] ?? '(end)')}, got ${JSON.stringify(b[i] ?? '(end)')}`;
  }
  return 'identical';
}

/**
 * The snapshot checks of one suite run: a case whose snapshot is missing gets one written (or, in
 * CI mode, fails); one that matches passes; one that differs fails with the first differing line,
 * or is rewritten with `update`. Checks of one key are serialised (repeat k: the first run writes,
 * the next ones compare). Counts what it did, and finds snapshots no case used (obsolete).
 */
export class SnapshotSession implements SnapshotChecker {
  readonly store: SnapshotStore;
  readonly counts: SnapshotCounts = { matched: 0, written: 0, updated: 0, failed: 0 };
  readonly #options: SnapshotSessionOptions;
  readonly #seen = new Set<string>();
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(store: SnapshotStore, options: SnapshotSessionOptions) {
    this.store = store;
    this.#options = options;
  }

  check(caseId: string, subject: SnapshotSubject, actual: string): Promise<CheckOutcome> {
    const key = snapshotKey(this.#options.suite, caseId, subject);
    this.#seen.add(key);
    const previous = this.#queues.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.#check(key, caseId, subject, actual));
    this.#queues.set(key, next.catch(() => undefined));
    return next;
  }

  async #check(key: string, caseId: string, subject: SnapshotSubject, actual: string): Promise<CheckOutcome> {
    const stored = await this.store.get(key);
    const write = async (): Promise<void> => {
      await this.store.put(key, { suite: this.#options.suite, caseId, subject, value: actual, savedAt: new Date((this.#options.now ?? Date.now)()).toISOString() });
    };
    if (stored === undefined) {
      if (this.#options.ci === true && this.#options.update !== true) {
        this.counts.failed++;
        return { pass: false, score: 0, reason: `no stored ${subject} snapshot "${key}" in ${this.store.where}; CI does not write new snapshots (run with --update-snapshots, or without CI, and commit them)`, actual };
      }
      await write();
      this.counts.written++;
      return { pass: true, score: 1, reason: `${subject} snapshot written (${key})` };
    }
    if (stored.value === actual) {
      this.counts.matched++;
      return { pass: true, score: 1, reason: `matches the ${subject} snapshot` };
    }
    if (this.#options.update === true) {
      await write();
      this.counts.updated++;
      return { pass: true, score: 1, reason: `${subject} snapshot updated (${key})` };
    }
    this.counts.failed++;
    return { pass: false, score: 0, reason: `differs from the ${subject} snapshot ${key} (${firstDifference(stored.value, actual)}); run with --update-snapshots if the change is intended`, expected: stored.value, actual };
  }

  /** Stored snapshots of this suite that no check of this session used (meaningful after a full, uncancelled run). */
  async obsolete(): Promise<string[]> {
    return (await this.store.keys(snapshotPrefix(this.#options.suite))).filter((key) => !this.#seen.has(key));
  }

  /** Deletes the obsolete snapshots; returns their keys. */
  async removeObsolete(): Promise<string[]> {
    const keys = await this.obsolete();
    for (const key of keys) await this.store.delete(key);
    return keys;
  }
}
