import { checkStoreId } from '../../storage/store-id.js';
import { settle, type DocumentBackend } from './document-backend.js';

/** Documents in a Map (tests, one process). */
export class MemoryDocumentBackend implements DocumentBackend {
  readonly where = 'memory://';
  readonly #documents = new Map<string, string>();
  readonly #what: string;

  constructor(what = 'id') {
    this.#what = what;
  }

  get(id: string): Promise<string | undefined> {
    return settle(() => this.#documents.get(checkStoreId(id, this.#what)));
  }

  put(id: string, body: string): Promise<void> {
    return settle(() => void this.#documents.set(checkStoreId(id, this.#what), body));
  }

  delete(id: string): Promise<boolean> {
    return settle(() => this.#documents.delete(checkStoreId(id, this.#what)));
  }

  list(): Promise<string[]> {
    return settle(() => [...this.#documents.keys()].sort());
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
