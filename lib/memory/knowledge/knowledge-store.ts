import type { KnowledgeEntry } from './knowledge-entry.js';

/**
 * Where KnowledgeMemory keeps long-term entries and the daily logs. Entry ids and the namespace
 * are store ids (REFERENCE.md §7), log days are `YYYY-MM-DD`; anything else is refused with
 * InvalidStoreIdError. Backends: FileKnowledgeStore (MEMORY.md and `YYYY-MM-DD.log` files),
 * SQLiteKnowledgeStore, MemoryKnowledgeStore; one conformance file tests them all.
 */
export interface KnowledgeStore {
  readonly namespace: string;
  /** Inserts or replaces the entry with this id. */
  put(entry: KnowledgeEntry): Promise<void>;
  /** The entry (expired ones too), or undefined. */
  get(id: string): Promise<KnowledgeEntry | undefined>;
  /** Every entry (expired ones too), most important first, then newest. */
  list(): Promise<KnowledgeEntry[]>;
  /** Deletes the entry; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Appends one line (line breaks become spaces) to the log of `day`. */
  appendLog(day: string, line: string): Promise<void>;
  /** The lines of the log of `day`, oldest first ([] when there is none). */
  readLog(day: string): Promise<string[]>;
  /** Deletes every entry and log of the namespace. */
  clear(): Promise<void>;
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** A log line as stored: one line. */
export function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
}
