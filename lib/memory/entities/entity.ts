/** The kinds of entity EntityMemory keeps. */
export const ENTITY_TYPES = ['person', 'organization', 'project', 'location', 'date', 'custom'] as const;

/** One of {@link ENTITY_TYPES}. */
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Something the conversation mentions: a person, an organisation, a project, a place, a date. */
export interface Entity {
  /** As first written; entities are the same when their names match case-insensitively. */
  name: string;
  type: EntityType;
  /** Facts about it (`role: CTO`); later values replace earlier ones key by key. */
  attributes: Record<string, string>;
  /** Runs in which it was mentioned. */
  mentionCount: number;
  /** Epoch milliseconds of its first and latest mention. */
  firstSeen: number;
  lastSeen: number;
}

/** What one extraction reports of an entity. */
export interface ExtractedEntity {
  name: string;
  type?: string;
  attributes?: Record<string, unknown>;
}

/** The key entities are deduplicated by: the name, trimmed, spaces collapsed, lower-cased. */
export function entityKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** `type` when it is one of ENTITY_TYPES (case-insensitive), else `custom`. */
export function entityType(type: unknown): EntityType {
  const lower = typeof type === 'string' ? type.trim().toLowerCase() : '';
  return (ENTITY_TYPES as readonly string[]).includes(lower) ? (lower as EntityType) : 'custom';
}

/** Attribute values as strings (numbers and booleans written out; null, objects and empty values dropped). */
export function cleanAttributes(attributes: Record<string, unknown> | undefined): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    const k = key.trim();
    if (k === '') continue;
    if (typeof value === 'string' && value.trim() !== '') clean[k] = value.trim();
    else if (typeof value === 'number' || typeof value === 'boolean') clean[k] = String(value);
  }
  return clean;
}

/**
 * `extracted` merged into `existing` (or a new entity): attributes merged key by key (the new
 * value wins), one more mention, `lastSeen` = `at`. A `custom` type never replaces a specific one.
 */
export function mergeEntity(existing: Entity | undefined, extracted: ExtractedEntity, at: number): Entity {
  const type = entityType(extracted.type);
  const attributes = cleanAttributes(extracted.attributes);
  if (existing === undefined) {
    return { name: extracted.name.trim().replace(/\s+/g, ' '), type, attributes, mentionCount: 1, firstSeen: at, lastSeen: at };
  }
  return {
    name: existing.name,
    type: type === 'custom' ? existing.type : type,
    attributes: { ...existing.attributes, ...attributes },
    mentionCount: existing.mentionCount + 1,
    firstSeen: existing.firstSeen,
    lastSeen: Math.max(existing.lastSeen, at),
  };
}

/** Checks a stored entity (from JSON or a store); returns a problem, or undefined when it is one. */
export function entityProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'an entity must be an object';
  const e = value as Record<string, unknown>;
  if (typeof e.name !== 'string' || e.name.trim() === '') return 'entity name must be a non-empty string';
  if (!(ENTITY_TYPES as readonly string[]).includes(e.type as string)) return `entity "${e.name}": type must be one of ${ENTITY_TYPES.join(', ')}`;
  if (typeof e.attributes !== 'object' || e.attributes === null || Object.values(e.attributes).some((v) => typeof v !== 'string')) return `entity "${e.name}": attributes must map names to strings`;
  for (const key of ['mentionCount', 'firstSeen', 'lastSeen'] as const) {
    if (typeof e[key] !== 'number' || !Number.isFinite(e[key]) || e[key] < 0) return `entity "${e.name}": ${key} must be a number ≥ 0`;
  }
  return undefined;
}
