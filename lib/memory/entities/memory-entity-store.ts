import { checkStoreId } from '../../storage/index.js';
import { entityKey, type Entity } from './entity.js';
import { DEFAULT_MEMORY_NAMESPACE, type EntityStore } from './entity-store.js';

/** Entities in process memory (tests, short-lived agents); copies in and out. */
export class MemoryEntityStore implements EntityStore {
  readonly namespace: string;
  readonly #entities = new Map<string, Entity>();

  constructor(options: { namespace?: string } = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_MEMORY_NAMESPACE, 'entity namespace');
  }

  all(): Promise<Entity[]> {
    return Promise.resolve([...this.#entities.values()].map((e) => structuredClone(e)));
  }

  put(entities: readonly Entity[]): Promise<void> {
    for (const entity of entities) this.#entities.set(entityKey(entity.name), structuredClone(entity));
    return Promise.resolve();
  }

  delete(names: readonly string[]): Promise<void> {
    for (const name of names) this.#entities.delete(entityKey(name));
    return Promise.resolve();
  }

  clear(): Promise<void> {
    this.#entities.clear();
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
