import { createHash } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeCheckpoint, encodeCheckpoint } from './codec.js';
import { pageLimit } from './page.js';
import { checkStoreId, resolveInside } from '../../storage/store-id.js';
import type { Checkpoint, CheckpointStore, InterruptClaim, ListCheckpointsOptions } from './types.js';

const FILE = /^(\d{12})-(.+)\.json$/;

/**
 * Checkpoints as JSON files: one directory per thread, one file per checkpoint named
 * `<sequence>-<checkpointId>.json` (the sequence orders them). A file is written under a temporary
 * name and then linked to its final name, so a reader never sees half a file and two writers never
 * take the same sequence number. Thread and checkpoint ids follow REFERENCE.md §7.
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = resolve(dir);
  }

  /** The directory. */
  get dir(): string {
    return this.#dir;
  }

  #threadDir(threadId: string): string {
    return resolveInside(this.#dir, checkStoreId(threadId, 'thread id'), 'thread id');
  }

  async put(checkpoint: Checkpoint): Promise<void> {
    checkStoreId(checkpoint.id, 'checkpoint id');
    const text = encodeCheckpoint(checkpoint);
    const dir = this.#threadDir(checkpoint.threadId);
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `.${checkpoint.id}.${process.pid}.tmp`);
    await writeFile(temp, text);
    try {
      let seq = (await this.#files(dir))[0]?.seq ?? 0;
      for (;;) {
        seq++;
        try {
          await link(temp, join(dir, `${String(seq).padStart(12, '0')}-${checkpoint.id}.json`));
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  /** A thread's files, newest first. */
  async #files(dir: string): Promise<{ seq: number; id: string; name: string }[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const files: { seq: number; id: string; name: string }[] = [];
    for (const name of names) {
      const m = FILE.exec(name);
      if (m) files.push({ seq: Number(m[1]), id: m[2] as string, name });
    }
    return files.sort((a, b) => b.seq - a.seq);
  }

  async #read(dir: string, name: string): Promise<Checkpoint> {
    const path = join(dir, name);
    return decodeCheckpoint(await readFile(path, 'utf8'), path);
  }

  async getLatest(threadId: string): Promise<Checkpoint | undefined> {
    const dir = this.#threadDir(threadId);
    const newest = (await this.#files(dir))[0];
    return newest ? this.#read(dir, newest.name) : undefined;
  }

  async get(checkpointId: string): Promise<Checkpoint | undefined> {
    checkStoreId(checkpointId, 'checkpoint id');
    for (const thread of await this.threads()) {
      const dir = this.#threadDir(thread);
      const file = (await this.#files(dir)).find((f) => f.id === checkpointId);
      if (file) return this.#read(dir, file.name);
    }
    return undefined;
  }

  async list(threadId: string, options: ListCheckpointsOptions = {}): Promise<Checkpoint[]> {
    const dir = this.#threadDir(threadId);
    const limit = pageLimit(options);
    let files = await this.#files(dir);
    if (options.before !== undefined) {
      const at = files.findIndex((f) => f.id === options.before);
      files = at === -1 ? [] : files.slice(at + 1);
    }
    return Promise.all(files.slice(0, limit).map((f) => this.#read(dir, f.name)));
  }

  async threads(): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(this.#dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  }

  async deleteThread(threadId: string): Promise<number> {
    const dir = this.#threadDir(threadId);
    const count = (await this.#files(dir)).length;
    await rm(dir, { recursive: true, force: true });
    return count;
  }

  /** The claim file of an interrupt: `<thread>/.claims/<sha256 of the interrupt id>.json`. */
  #claimFile(threadId: string, interruptId: string): { dir: string; path: string } {
    const dir = join(this.#threadDir(threadId), '.claims');
    return { dir, path: join(dir, `${createHash('sha256').update(interruptId).digest('hex')}.json`) };
  }

  async claimInterrupt(threadId: string, claim: InterruptClaim, takeOver = false): Promise<InterruptClaim | undefined> {
    const { dir, path } = this.#claimFile(threadId, claim.interruptId);
    await mkdir(dir, { recursive: true });
    // Written whole under a temporary name, then linked (fails when the claim exists) or renamed (takeOver).
    const temp = join(dir, `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    await writeFile(temp, JSON.stringify(claim));
    try {
      for (;;) {
        if (takeOver) {
          await rename(temp, path);
          return undefined;
        }
        try {
          await link(temp, path);
          return undefined;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const held = await readClaim(path);
        if (held) return held;
        // Released between the link and the read: try again.
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }

  async releaseInterrupt(threadId: string, interruptId: string, owner: string): Promise<void> {
    const { path } = this.#claimFile(threadId, interruptId);
    if ((await readClaim(path))?.owner === owner) await unlink(path).catch(() => undefined);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function readClaim(path: string): Promise<InterruptClaim | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as InterruptClaim;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
