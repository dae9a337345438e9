import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInside, writeFileAtomic } from '../storage/index.js';
import { AsyncMutex } from '../memory/async-mutex.js';
import { BaseSessionStore, type SessionStoreOptions } from './base-session-store.js';
import { decodeSession, encodeSession } from './session-record.js';
import type { SessionRecord } from './types.js';

/** Options of {@link JsonFileSessionStore}. */
export interface JsonFileSessionStoreOptions extends SessionStoreOptions {
  /** Base directory; each namespace is a folder in it, each session a `<id>.json` file. */
  directory: string;
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * One JSON file per session: `<directory>/<namespace>/<id>.json`, written atomically
 * (write-then-rename). Ids are checked (REFERENCE.md §7) and every path is resolved and asserted
 * to stay inside the base directory. Writes are serialised within the process;
 * for several processes writing one session, use SQLite or Redis.
 */
export class JsonFileSessionStore extends BaseSessionStore {
  readonly directory: string;
  readonly #folder: string;
  readonly #writes = new AsyncMutex();

  constructor(options: JsonFileSessionStoreOptions) {
    super(options);
    this.directory = options.directory;
    this.#folder = resolveInside(options.directory, this.namespace);
  }

  #path(id: string): string {
    return resolveInside(this.#folder, `${this.checkId(id)}.json`);
  }

  protected async read(id: string): Promise<SessionRecord | undefined> {
    const path = this.#path(id);
    try {
      return decodeSession(await readFile(path, 'utf8'), path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  protected compareAndSet(record: SessionRecord, expected: number): Promise<boolean> {
    return this.#writes.run(async () => {
      const current = (await this.read(record.id))?.revision ?? 0;
      if (current !== expected) return false;
      await mkdir(this.#folder, { recursive: true });
      await writeFileAtomic(this.#path(record.id), encodeSession(record));
      return true;
    });
  }

  protected remove(id: string): Promise<boolean> {
    return this.#writes.run(async () => {
      const path = this.#path(id);
      const existed = (await this.read(id)) !== undefined;
      await rm(path, { force: true });
      return existed;
    });
  }

  protected async readAll(): Promise<SessionRecord[]> {
    let names: string[];
    try {
      names = await readdir(this.#folder);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const records: SessionRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const path = join(this.#folder, name);
      try {
        records.push(decodeSession(await readFile(path, 'utf8'), path));
      } catch (error) {
        if (!isMissing(error)) throw error; // deleted meanwhile
      }
    }
    return records;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
