import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { checkStoreId, resolveInside } from '../../storage/store-id.js';
import { writeFileAtomic } from '../../storage/write-file-atomic.js';
import type { DocumentBackend } from './document-backend.js';

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * One `<id>.json` file per document in a directory, written atomically (write-then-rename). Ids are
 * checked and every path is asserted to stay inside the directory. The files are plain text, meant
 * to be committed (snapshots, baselines reviewed in a diff).
 */
export class FileDocumentBackend implements DocumentBackend {
  readonly where: string;
  readonly #directory: string;
  readonly #what: string;

  constructor(directory: string, what = 'id') {
    this.#directory = directory;
    this.where = directory;
    this.#what = what;
  }

  #path(id: string): string {
    return resolveInside(this.#directory, `${checkStoreId(id, this.#what)}.json`, this.#what);
  }

  async get(id: string): Promise<string | undefined> {
    try {
      return await readFile(this.#path(id), 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async put(id: string, body: string): Promise<void> {
    const path = this.#path(id);
    await mkdir(this.#directory, { recursive: true });
    await writeFileAtomic(path, body);
  }

  async delete(id: string): Promise<boolean> {
    const path = this.#path(id);
    const existed = (await this.get(id)) !== undefined;
    await rm(path, { force: true });
    return existed;
  }

  async list(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.#directory);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return names
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .sort();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
