import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import { checkStoreId, resolveInside, writeFileAtomic } from '../../storage/index.js';
import { AsyncMutex } from '../async-mutex.js';
import { DEFAULT_MEMORY_NAMESPACE } from '../entities/entity-store.js';
import { checkDay, checkEntry, compareEntries, type KnowledgeEntry } from './knowledge-entry.js';
import { oneLine, type KnowledgeStore } from './knowledge-store.js';
import { MEMORY_FILE, parseMemoryFile, renderMemoryFile } from './memory-file.js';

/** The directory of a FileKnowledgeStore opened without one. */
export const DEFAULT_KNOWLEDGE_DIR = '.agentlib/memory';

function missing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Knowledge as files you can read and edit: `<directory>/<namespace>/MEMORY.md` (the long-term
 * entries, rewritten atomically on each change) and one `YYYY-MM-DD.log` per day (appended). Paths
 * always resolve inside the directory. Writes of one store object are serialised; two processes
 * writing one MEMORY.md at once may lose an entry (use SQLiteKnowledgeStore for that).
 */
export class FileKnowledgeStore implements KnowledgeStore {
  readonly namespace: string;
  readonly directory: string;
  readonly #folder: string;
  readonly #mutex = new AsyncMutex();

  constructor(options: { directory?: string; namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'knowledge namespace');
    this.directory = options.directory ?? DEFAULT_KNOWLEDGE_DIR;
    this.#folder = resolveInside(this.directory, this.namespace, 'knowledge namespace');
  }

  /** The MEMORY.md of this namespace. */
  get memoryFile(): string {
    return resolveInside(this.#folder, MEMORY_FILE);
  }

  /** The log file of `day` (checked). */
  logFile(day: string): string {
    return resolveInside(this.#folder, `${checkDay(day)}.log`, 'daily log');
  }

  async #read(): Promise<KnowledgeEntry[]> {
    try {
      return parseMemoryFile(await readFile(this.memoryFile, 'utf8'), this.memoryFile, Date.now());
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  }

  async #write(entries: KnowledgeEntry[]): Promise<void> {
    await mkdir(this.#folder, { recursive: true });
    await writeFileAtomic(this.memoryFile, renderMemoryFile(entries.sort(compareEntries)));
  }

  put(entry: KnowledgeEntry): Promise<void> {
    checkStoreId(entry.id, 'knowledge entry id');
    const copy = structuredClone(checkEntry(entry));
    return this.#mutex.run(async () => {
      const entries = (await this.#read()).filter((e) => e.id !== entry.id);
      entries.push(copy);
      await this.#write(entries);
    });
  }

  async get(id: string): Promise<KnowledgeEntry | undefined> {
    checkStoreId(id, 'knowledge entry id');
    return this.#mutex.run(async () => (await this.#read()).find((e) => e.id === id));
  }

  list(): Promise<KnowledgeEntry[]> {
    return this.#mutex.run(async () => (await this.#read()).sort(compareEntries));
  }

  delete(id: string): Promise<boolean> {
    checkStoreId(id, 'knowledge entry id');
    return this.#mutex.run(async () => {
      const entries = await this.#read();
      const kept = entries.filter((e) => e.id !== id);
      if (kept.length === entries.length) return false;
      await this.#write(kept);
      return true;
    });
  }

  async appendLog(day: string, line: string): Promise<void> {
    const path = this.logFile(day);
    await mkdir(this.#folder, { recursive: true });
    await appendFile(path, `${oneLine(line)}\n`, 'utf8');
  }

  async readLog(day: string): Promise<string[]> {
    try {
      const text = await readFile(this.logFile(day), 'utf8');
      return text.split('\n').slice(0, -1);
    } catch (error) {
      if (missing(error)) return [];
      throw error;
    }
  }

  clear(): Promise<void> {
    return this.#mutex.run(() => rm(this.#folder, { recursive: true, force: true }));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
