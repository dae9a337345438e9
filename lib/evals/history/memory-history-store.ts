import type { ReportView } from '../report/report-view.js';
import { checkLimit, historyEntry, type EvalHistoryEntry, type HistoryStore } from './history-store.js';

/** A HistoryStore in memory (tests, one process). */
export class MemoryHistoryStore implements HistoryStore {
  readonly #entries: EvalHistoryEntry[] = [];

  record(report: ReportView): Promise<EvalHistoryEntry> {
    const entry = historyEntry(report);
    this.#entries.push(entry);
    return Promise.resolve({ ...entry });
  }

  list(suite: string, options: { limit?: number } = {}): Promise<EvalHistoryEntry[]> {
    checkLimit(options.limit);
    const all = this.#entries.filter((e) => e.suite === suite).map((e) => ({ ...e }));
    return Promise.resolve(options.limit === undefined ? all : all.slice(-options.limit));
  }

  close(): void {
    // nothing to release
  }
}
