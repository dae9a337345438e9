import { checkStoreId } from '../../storage/index.js';
import { DEFAULT_MEMORY_NAMESPACE } from '../entities/entity-store.js';
import { checkDay, checkEntry, compareEntries, type KnowledgeEntry } from './knowledge-entry.js';
import { oneLine, type KnowledgeStore } from './knowledge-store.js';

/** Knowledge in process memory (tests, short-lived agents); copies in and out. */
export class MemoryKnowledgeStore implements KnowledgeStore {
  readonly namespace: string;
  readonly #entries = new Map<string, KnowledgeEntry>();
  readonly #logs = new Map<string, string[]>();

  constructor(options: { namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'knowledge namespace');
  }

  put(entry: KnowledgeEntry): Promise<void> {
    checkStoreId(entry.id, 'knowledge entry id');
    this.#entries.set(entry.id, structuredClone(checkEntry(entry)));
    return Promise.resolve();
  }

  get(id: string): Promise<KnowledgeEntry | undefined> {
    const entry = this.#entries.get(checkStoreId(id, 'knowledge entry id'));
    return Promise.resolve(entry === undefined ? undefined : structuredClone(entry));
  }

  list(): Promise<KnowledgeEntry[]> {
    return Promise.resolve([...this.#entries.values()].sort(compareEntries).map((e) => structuredClone(e)));
  }

  delete(id: string): Promise<boolean> {
    return Promise.resolve(this.#entries.delete(checkStoreId(id, 'knowledge entry id')));
  }

  appendLog(day: string, line: string): Promise<void> {
    const lines = this.#logs.get(checkDay(day)) ?? [];
    lines.push(oneLine(line));
    this.#logs.set(day, lines);
    return Promise.resolve();
  }

  readLog(day: string): Promise<string[]> {
    return Promise.resolve([...(this.#logs.get(checkDay(day)) ?? [])]);
  }

  clear(): Promise<void> {
    this.#entries.clear();
    this.#logs.clear();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
