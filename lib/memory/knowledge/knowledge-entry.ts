import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { InvalidStoreIdError } from '../../storage/index.js';

/** Something worth remembering beyond one conversation. */
export interface KnowledgeEntry {
  /** Store id (`[A-Za-z0-9_.-]{1,128}`). */
  id: string;
  content: string;
  /** 0 (trivial) to 1 (essential): the least important entries are evicted first. */
  importance: number;
  categories: string[];
  /** Epoch milliseconds. */
  createdAt: number;
  /** Seconds it stays valid (none: forever). */
  ttl?: number;
  /** Epoch milliseconds after which it is gone (createdAt + ttl). */
  expiresAt?: number;
}

/** Problem with a stored entry, or undefined when it is a KnowledgeEntry. */
export function entryProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'an entry must be an object';
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string') return 'id must be a string';
  if (typeof e.content !== 'string') return `entry ${e.id}: content must be a string`;
  if (typeof e.importance !== 'number' || !(e.importance >= 0 && e.importance <= 1)) return `entry ${e.id}: importance must be a number in [0, 1]`;
  if (!Array.isArray(e.categories) || e.categories.some((c) => typeof c !== 'string')) return `entry ${e.id}: categories must be a list of strings`;
  if (typeof e.createdAt !== 'number' || !Number.isFinite(e.createdAt)) return `entry ${e.id}: createdAt must be a number`;
  for (const key of ['ttl', 'expiresAt'] as const) {
    if (e[key] !== undefined && (typeof e[key] !== 'number' || !Number.isFinite(e[key]) || e[key] < 0)) return `entry ${e.id}: ${key} must be a number ≥ 0`;
  }
  return undefined;
}

/** Checks an entry before a store writes it; throws ConfigurationError naming the problem. */
export function checkEntry(entry: KnowledgeEntry): KnowledgeEntry {
  const problem = entryProblem(entry);
  if (problem !== undefined) throw new ConfigurationError(`KnowledgeEntry: ${problem}`, { key: 'entry' });
  return entry;
}

/** True when the entry's ttl has run out at `now`. */
export function isExpired(entry: KnowledgeEntry, now: number): boolean {
  return entry.expiresAt !== undefined && entry.expiresAt <= now;
}

/** Store order: most important first, then newest, then by id. */
export function compareEntries(a: KnowledgeEntry, b: KnowledgeEntry): number {
  return b.importance - a.importance || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Checks a daily-log name `YYYY-MM-DD` (a real date); InvalidStoreIdError otherwise. */
export function checkDay(day: unknown): string {
  const match = typeof day === 'string' ? DAY.exec(day) : null;
  const time = match === null ? Number.NaN : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const valid = Number.isFinite(time) && new Date(time).toISOString().startsWith(day as string);
  if (!valid) throw new InvalidStoreIdError({ what: 'daily log', id: String(day), reason: 'it must be a date YYYY-MM-DD' });
  return day as string;
}

/** The UTC day of an epoch-millisecond time, `YYYY-MM-DD`. */
export function dayOf(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
