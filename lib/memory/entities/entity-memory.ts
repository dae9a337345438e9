import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Message } from '../../core/message.js';
import type { UsageStats } from '../../core/usage.js';
import { AsyncMutex } from '../async-mutex.js';
import { structuredCall, transcript, type ExtractorOptions } from '../extraction-call.js';
import { ENTITY_TYPES, entityKey, entityProblem, mergeEntity, type Entity, type ExtractedEntity } from './entity.js';
import type { EntityStore } from './entity-store.js';

/** Defaults of EntityMemory. */
export const ENTITY_MEMORY_DEFAULTS = { maxEntities: 100, maxInjected: 20 } as const;

/** Title of the context block EntityMemory puts before a run. */
export const ENTITY_BLOCK_TITLE = 'Known Entities';

/** Options of {@link EntityMemory}. */
export interface EntityMemoryOptions {
  /** Most entities kept; the least recently mentioned go first (LRU). Default 100. */
  maxEntities?: number;
  /** Most entities listed in the "Known Entities" block (most recently mentioned first). Default 20. */
  maxInjected?: number;
  /** Keeps the entities between processes (SQLiteEntityStore); default: this process only. */
  store?: EntityStore;
  /** Extraction model; default: the agent's provider and model. */
  extractor?: ExtractorOptions;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

/** JSON form of an EntityMemory (`toJSON` / `fromJSON`). */
export interface EntityMemorySnapshot {
  kind: 'entity-memory';
  version: 1;
  entities: Entity[];
}

/** JSON Schema of one extraction reply. */
export const ENTITY_EXTRACTION_SCHEMA = {
  type: 'object',
  properties: {
    entities: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          type: { type: 'string', enum: [...ENTITY_TYPES] },
          attributes: { type: 'object', additionalProperties: { type: 'string' } },
        },
        required: ['name', 'type', 'attributes'],
        additionalProperties: false,
      },
    },
  },
  required: ['entities'],
  additionalProperties: false,
} as const;

const SYSTEM = [
  'You extract the named entities of a conversation: people, organizations, projects, locations, dates, and other named things (type custom).',
  'For each, give its name as written, its type, and attributes stated in the conversation (short string values, e.g. {"role": "CTO"}).',
  'Only what the conversation states; no guesses. An empty list when there are none.',
].join(' ');

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`EntityMemory: ${name} must be an integer ≥ 1 (got ${String(value)})`, { key: `entityMemory.${name}` });
  return value;
}

/** The entities of an extraction reply (malformed items skipped); a reply of the wrong shape throws. */
export function parseExtractedEntities(value: unknown): ExtractedEntity[] {
  const list = (value as { entities?: unknown } | null)?.entities;
  if (!Array.isArray(list)) throw new SyntaxError('entity extraction: the reply has no "entities" list');
  const found: ExtractedEntity[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, type, attributes } = item as Record<string, unknown>;
    if (typeof name !== 'string' || name.trim() === '') continue;
    found.push({
      name,
      ...(typeof type === 'string' ? { type } : {}),
      ...(typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes) ? { attributes: attributes as Record<string, unknown> } : {}),
    });
  }
  return found;
}

/**
 * The people, organisations, projects, places and dates a conversation mentions, with what it
 * says about them. After each run one structured LLM call extracts the entities of the run's
 * messages; they are merged by case-insensitive name (attributes key by key, the newer value
 * wins), counted, time-stamped, and the least recently mentioned are dropped beyond
 * `maxEntities`. Before each run, a "Known Entities" block lists the most recent ones.
 */
export class EntityMemory {
  readonly maxEntities: number;
  readonly maxInjected: number;
  readonly store: EntityStore | undefined;
  readonly extractor: ExtractorOptions | undefined;
  /** Insertion order = recency: the first entry is the least recently mentioned. */
  readonly #entities = new Map<string, Entity>();
  readonly #mutex = new AsyncMutex();
  readonly #now: () => number;
  #loaded: Promise<void> | undefined;

  constructor(options: EntityMemoryOptions = {}) {
    this.maxEntities = positiveInt('maxEntities', options.maxEntities ?? ENTITY_MEMORY_DEFAULTS.maxEntities);
    this.maxInjected = positiveInt('maxInjected', options.maxInjected ?? ENTITY_MEMORY_DEFAULTS.maxInjected);
    this.store = options.store;
    this.extractor = options.extractor;
    this.#now = options.now ?? Date.now;
    if (options.store === undefined) this.#loaded = Promise.resolve();
  }

  /** Loads the store's entities (once; later calls wait for the same load). */
  ready(): Promise<void> {
    this.#loaded ??= this.#mutex.run(async () => {
      const stored = await this.store!.all();
      stored.sort((a, b) => a.lastSeen - b.lastSeen);
      for (const entity of stored) this.#entities.set(entityKey(entity.name), entity);
      this.#prune();
    });
    return this.#loaded;
  }

  /** Number of entities. */
  get size(): number {
    return this.#entities.size;
  }

  /** The entities, most recently mentioned first (copies). */
  get entities(): Entity[] {
    return [...this.#entities.values()].reverse().map((e) => structuredClone(e));
  }

  /** The entity of `name` (case-insensitive), or undefined. */
  get(name: string): Entity | undefined {
    const entity = this.#entities.get(entityKey(name));
    return entity === undefined ? undefined : structuredClone(entity);
  }

  /**
   * Merges extracted entities (each counted once per call, however often it is listed) and prunes
   * to `maxEntities`; returns the entities touched, as merged. Writes through to the store.
   */
  async merge(extracted: readonly ExtractedEntity[], at = this.#now()): Promise<Entity[]> {
    await this.ready();
    return this.#mutex.run(async () => {
      const touched = new Map<string, Entity>();
      for (const item of extracted) {
        const key = entityKey(item.name);
        if (key === '') continue;
        const previous = touched.get(key);
        const merged = previous === undefined
          ? mergeEntity(this.#entities.get(key), item, at)
          : { ...mergeEntity(previous, item, at), mentionCount: previous.mentionCount };
        touched.set(key, merged);
        this.#entities.delete(key);
        this.#entities.set(key, merged);
      }
      const dropped = this.#prune();
      if (this.store !== undefined) {
        const kept = [...touched.entries()].filter(([key]) => this.#entities.has(key)).map(([, e]) => e);
        if (kept.length > 0) await this.store.put(kept);
        if (dropped.length > 0) await this.store.delete(dropped.map((e) => e.name));
      }
      return [...touched.values()].map((e) => structuredClone(e));
    });
  }

  /** Drops the least recently mentioned entities beyond maxEntities; returns them. */
  #prune(): Entity[] {
    const dropped: Entity[] = [];
    for (const [key, entity] of this.#entities) {
      if (this.#entities.size <= this.maxEntities) break;
      this.#entities.delete(key);
      dropped.push(entity);
    }
    return dropped;
  }

  /**
   * Asks the extraction model for the entities of `messages` (one structured call). Returns them
   * without merging; a reply that is not the expected JSON throws (SyntaxError).
   */
  async extract(messages: readonly Message[], extractor: ExtractorOptions | undefined = this.extractor, signal?: AbortSignal): Promise<{ entities: ExtractedEntity[]; usage: UsageStats | undefined }> {
    if (extractor === undefined) throw new ConfigurationError('EntityMemory.extract needs an extractor (a provider): give `extractor` to the memory, or use it through an Agent', { key: 'entityMemory.extractor' });
    const { value, usage } = await structuredCall(extractor, {
      name: 'entities',
      system: SYSTEM,
      user: `Conversation:\n${transcript(messages)}`,
      schema: ENTITY_EXTRACTION_SCHEMA,
      ...(signal === undefined ? {} : { signal }),
    });
    return { entities: parseExtractedEntities(value), usage };
  }

  /**
   * The "Known Entities" block: the `maxInjected` most recently mentioned entities, one line each
   * (`- Ada Lovelace (person): role: CTO; company: Acme`), or undefined when there are none.
   */
  contextBlock(): string | undefined {
    const recent = [...this.#entities.values()].reverse().slice(0, this.maxInjected);
    if (recent.length === 0) return undefined;
    const lines = recent.map((e) => {
      const attributes = Object.entries(e.attributes).map(([k, v]) => `${k}: ${v}`).join('; ');
      return `- ${e.name} (${e.type})${attributes === '' ? '' : `: ${attributes}`}`;
    });
    return `${ENTITY_BLOCK_TITLE}:\n${lines.join('\n')}`;
  }

  /** Forgets every entity (in the store too). */
  async clear(): Promise<void> {
    await this.ready();
    await this.#mutex.run(async () => {
      this.#entities.clear();
      await this.store?.clear();
    });
  }

  /** The entities as versioned JSON (least recently mentioned first). */
  toJSON(): EntityMemorySnapshot {
    return { kind: 'entity-memory', version: 1, entities: [...this.#entities.values()].map((e) => structuredClone(e)) };
  }

  /** An EntityMemory holding the entities of a snapshot; a malformed one throws ConfigurationError naming the problem. */
  static fromJSON(data: unknown, options: EntityMemoryOptions = {}): EntityMemory {
    const snapshot = data as Partial<EntityMemorySnapshot> | null;
    const fail = (problem: string): never => {
      throw new ConfigurationError(`Not an EntityMemory snapshot: ${problem}`, { key: 'entityMemory' });
    };
    if (typeof snapshot !== 'object' || snapshot === null) fail('expected an object');
    if (snapshot!.kind !== 'entity-memory') fail(`kind is ${JSON.stringify(snapshot!.kind)}, expected "entity-memory"`);
    if (snapshot!.version !== 1) fail(`version ${JSON.stringify(snapshot!.version)} is not supported (this agentlib reads version 1)`);
    if (!Array.isArray(snapshot!.entities)) fail('entities must be a list');
    const memory = new EntityMemory(options);
    for (const [i, entity] of snapshot!.entities!.entries()) {
      const problem = entityProblem(entity);
      if (problem !== undefined) fail(`entities[${i}]: ${problem}`);
      memory.#entities.set(entityKey(entity.name), structuredClone(entity));
    }
    memory.#prune();
    return memory;
  }
}
