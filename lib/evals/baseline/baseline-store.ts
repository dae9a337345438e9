import { decodeRecord, encodeRecord } from '../../storage/record.js';
import { EvalReport, type EvalReportJSON } from '../eval-report.js';
import type { DocumentBackend } from '../stores/document-backend.js';

/** The record kind and version of a stored baseline. */
export const BASELINE_RECORD = { kind: 'eval-baseline', version: 1 } as const;

/** A stored baseline's header (no cases). */
export interface BaselineInfo {
  name: string;
  suite: string;
  /** When the baseline run started (ISO 8601). */
  startedAt: string;
  /** When it was saved (ISO 8601). */
  savedAt: string;
  accuracy: number;
  cases: number;
}

interface BaselineData {
  savedAt: string;
  report: EvalReportJSON;
}

/** Options of {@link BaselineStore.save}. */
export interface SaveBaselineOptions {
  /** Keep each run's trace in the stored report (default false: baselines compare verdicts, traces are large). */
  keepTraces?: boolean;
  /** Clock for `savedAt`. Default `Date.now`. */
  now?: () => number;
}

/**
 * Named baseline reports (`main`, `release-1.4`) to compare new runs with
 * ({@link compareReports}: a pass that became a non-pass is a regression). Saving a name again
 * replaces it. Backed by any eval store URL (memory, file, SQLite, Redis, PostgreSQL) through
 * {@link openBaselineStore}; names are store ids (`^[A-Za-z0-9_.-]{1,128}$`, no `..`), anything
 * else is an InvalidStoreIdError. Reports are stored as versioned records (`eval-baseline` v1).
 */
export class BaselineStore {
  readonly #backend: DocumentBackend;

  constructor(backend: DocumentBackend) {
    this.#backend = backend;
  }

  /** Where the baselines live (for messages). */
  get where(): string {
    return this.#backend.where;
  }

  /** Saves `report` as the baseline `name` (replacing one of that name); returns its header. */
  async save(name: string, report: EvalReport, options: SaveBaselineOptions = {}): Promise<BaselineInfo> {
    const json = report.toJSON();
    const stored: EvalReportJSON = options.keepTraces === true ? json : { ...json, cases: json.cases.map((c) => ({ ...c, attempts: c.attempts.map(({ trace: _trace, ...attempt }) => attempt) })) };
    const data: BaselineData = { savedAt: new Date((options.now ?? Date.now)()).toISOString(), report: stored };
    await this.#backend.put(name, encodeRecord(BASELINE_RECORD.kind, BASELINE_RECORD.version, data));
    return infoOf(name, data);
  }

  /** The baseline `name`, or undefined when there is none. */
  async get(name: string): Promise<EvalReport | undefined> {
    const data = await this.#read(name);
    return data === undefined ? undefined : EvalReport.fromJSON(data.report, `baseline "${name}" in ${this.where}`);
  }

  /** The header of baseline `name`, or undefined. */
  async info(name: string): Promise<BaselineInfo | undefined> {
    const data = await this.#read(name);
    return data === undefined ? undefined : infoOf(name, data);
  }

  /** Every baseline's header, by name. */
  async list(): Promise<BaselineInfo[]> {
    const infos: BaselineInfo[] = [];
    for (const name of await this.#backend.list()) {
      const info = await this.info(name);
      if (info !== undefined) infos.push(info);
    }
    return infos;
  }

  /** Removes baseline `name`; true when it existed. */
  delete(name: string): Promise<boolean> {
    return this.#backend.delete(name);
  }

  close(): Promise<void> {
    return this.#backend.close();
  }

  async #read(name: string): Promise<BaselineData | undefined> {
    const text = await this.#backend.get(name);
    if (text === undefined) return undefined;
    return decodeRecord<BaselineData>(text, { ...BASELINE_RECORD, where: `baseline "${name}" in ${this.where}` });
  }
}

function infoOf(name: string, data: BaselineData): BaselineInfo {
  const report = EvalReport.fromJSON(data.report);
  return { name, suite: report.suite, startedAt: report.startedAt, savedAt: data.savedAt, accuracy: report.accuracy, cases: report.cases.length };
}
