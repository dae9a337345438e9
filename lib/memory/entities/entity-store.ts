import type { Entity } from './entity.js';

/**
 * Where EntityMemory keeps its entities between processes. Entities are keyed by their
 * case-insensitive name ({@link entityKey}); a namespace (checked as a store id) keeps the
 * entities of different agents apart. Backends: MemoryEntityStore, SQLiteEntityStore.
 */
export interface EntityStore {
  readonly namespace: string;
  /** Every entity of the namespace. */
  all(): Promise<Entity[]>;
  /** Inserts or replaces these entities (by key). */
  put(entities: readonly Entity[]): Promise<void>;
  /** Removes the entities with these names (case-insensitive); unknown names are ignored. */
  delete(names: readonly string[]): Promise<void>;
  /** Removes every entity of the namespace. */
  clear(): Promise<void>;
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>;
}

/** The namespace of stores opened without one. */
export const DEFAULT_MEMORY_NAMESPACE = 'default';
