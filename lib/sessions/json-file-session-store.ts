import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { resolveInside } from '../storage/index.js';
import { AsyncMutex } from '../memory/async-mutex.js';
import { BaseSessionStore, type SessionStoreOptions } from './base-session-store.js';
import { decodeSession, headerOf, sameHeader } from './session-record.js';
import type { SessionHeader, SessionRecord } from './types.js';

/** What this store last wrote or read of a file: its header, and the file's size and mtime then. */
interface KnownFile {
  header: SessionHeader;
  size: number;
  mtimeNs: bigint;
  /** Every write-then-rename makes a new inode: a file replaced by any writer has another one. */
  ino: bigint;
}

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
  /**
   * Headers of files this store wrote or read, with the file's inode, size and mtime at that moment: a
   * save checks the revision with one `stat` instead of reading and parsing the whole session
   * again (a file changed since — another store object, an editor — is read in full).
   */
  readonly #known = new Map<string, KnownFile>();

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

  /** Remembers `header` for the file whose identity (inode, mtime, size) is `info`. */
  #remember(path: string, header: SessionHeader, info: BigIntStats): void {
    this.#known.set(path, { header: headerOf(header), size: Number(info.size), mtimeNs: info.mtimeNs, ino: info.ino });
  }

  protected override async readHeader(id: string): Promise<SessionHeader | undefined> {
    const path = this.#path(id);
    let info;
    try {
      info = await stat(path, { bigint: true });
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const known = this.#known.get(path);
    if (known !== undefined && known.ino === info.ino && known.mtimeNs === info.mtimeNs && known.size === Number(info.size)) return known.header;
    // Read through one open file, whose identity is taken from that same file: another writer's
    // rename meanwhile cannot pair this header with its file.
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    try {
      const opened = await handle.stat({ bigint: true });
      const record = decodeSession(await handle.readFile('utf8'), path);
      this.#remember(path, record, opened);
      return record;
    } finally {
      await handle.close();
    }
  }

  /**
   * Writes `data` to `path` atomically (a temporary file beside it, renamed over it) and returns
   * the new file's identity, taken from the temporary file before the rename (never another
   * writer's file). The folder is made only when the first attempt finds it missing.
   */
  async #writeAtomic(path: string, data: string): Promise<BigIntStats> {
    const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    let handle;
    try {
      handle = await open(temp, 'wx');
    } catch (error) {
      if (!isMissing(error)) throw error;
      await mkdir(dirname(path), { recursive: true });
      handle = await open(temp, 'wx');
    }
    try {
      await handle.writeFile(data, 'utf8');
      const info = await handle.stat({ bigint: true });
      await handle.close();
      handle = undefined;
      await rename(temp, path);
      return info;
    } catch (error) {
      await handle?.close();
      await rm(temp, { force: true });
      throw error;
    }
  }

  protected compareAndSet(record: SessionRecord, expected: SessionHeader | undefined, data: string): Promise<boolean> {
    return this.#writes.run(async () => {
      if (!sameHeader(await this.readHeader(record.id), expected)) return false;
      const path = this.#path(record.id);
      this.#known.delete(path);
      this.#remember(path, record, await this.#writeAtomic(path, data));
      return true;
    });
  }

  protected remove(id: string): Promise<boolean> {
    return this.#writes.run(async () => {
      const path = this.#path(id);
      const existed = (await this.read(id)) !== undefined;
      this.#known.delete(path);
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
