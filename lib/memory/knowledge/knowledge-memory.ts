import { randomUUID } from 'node:crypto';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { MemoryLimitExceededError } from '../../core/errors/memory-limit-exceeded-error.js';
import { AsyncMutex } from '../async-mutex.js';
import { dayOf, isExpired, type KnowledgeEntry } from './knowledge-entry.js';
import type { KnowledgeStore } from './knowledge-store.js';
import { MemoryKnowledgeStore } from './memory-knowledge-store.js';

/** Defaults of KnowledgeMemory (REFERENCE.md §1: 50 entries). */
export const KNOWLEDGE_MEMORY_DEFAULTS = { maxEntries: 50, maxEntryChars: 2000, recentDays: 2, maxRecentLines: 20, importance: 0.5 } as const;

/** Titles of the context blocks KnowledgeMemory puts before a run. */
export const LONG_TERM_BLOCK_TITLE = 'Long-term Memory';
export const RECENT_BLOCK_TITLE = 'Recent Memory';

/** Options of {@link KnowledgeMemory}. */
export interface KnowledgeMemoryOptions {
  /** Where entries and logs live; default a MemoryKnowledgeStore (this process only). */
  store?: KnowledgeStore;
  /** Most long-term entries kept; beyond it the least important (then oldest) are evicted. Default 50. */
  maxEntries?: number;
  /** Longest entry, in characters; a longer one is refused with MemoryLimitExceededError. Default 2,000. */
  maxEntryChars?: number;
  /** Days of logs (today included) shown as "Recent Memory". Default 2. */
  recentDays?: number;
  /** Most log lines shown as "Recent Memory" (the latest). Default 20. */
  maxRecentLines?: number;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

/** What `remember` takes. */
export interface RememberInput {
  content: string;
  /** 0–1; default 0.5. */
  importance?: number;
  categories?: readonly string[];
  /** Seconds the entry stays valid; default forever. */
  ttl?: number;
}

function check(name: string, value: number, ok: boolean): number {
  if (!ok) throw new ConfigurationError(`KnowledgeMemory: ${name} is out of range (got ${String(value)})`, { key: `knowledgeMemory.${name}` });
  return value;
}

const isCount = (v: number, min: number): boolean => Number.isInteger(v) && v >= min;

/** `HH:MM:SS` (UTC) of an epoch-millisecond time. */
function clock(time: number): string {
  return new Date(time).toISOString().slice(11, 19);
}

/**
 * Long-term memory across conversations: entries the agent chooses to keep (the `remember` tool),
 * each with an importance, categories and an optional ttl, and a daily log (`YYYY-MM-DD`) of what
 * was remembered and of each conversation turn. With a FileKnowledgeStore they are the files
 * MEMORY.md and `YYYY-MM-DD.log`. Before each run the "Long-term Memory" (entries, most important
 * first) and "Recent Memory" (the latest log lines) blocks are given to the model.
 */
export class KnowledgeMemory {
  readonly store: KnowledgeStore;
  readonly maxEntries: number;
  readonly maxEntryChars: number;
  readonly recentDays: number;
  readonly maxRecentLines: number;
  readonly #now: () => number;
  readonly #mutex = new AsyncMutex();

  constructor(options: KnowledgeMemoryOptions = {}) {
    const d = KNOWLEDGE_MEMORY_DEFAULTS;
    this.store = options.store ?? new MemoryKnowledgeStore();
    this.maxEntries = check('maxEntries', options.maxEntries ?? d.maxEntries, isCount(options.maxEntries ?? d.maxEntries, 1));
    this.maxEntryChars = check('maxEntryChars', options.maxEntryChars ?? d.maxEntryChars, isCount(options.maxEntryChars ?? d.maxEntryChars, 1));
    this.recentDays = check('recentDays', options.recentDays ?? d.recentDays, isCount(options.recentDays ?? d.recentDays, 0));
    this.maxRecentLines = check('maxRecentLines', options.maxRecentLines ?? d.maxRecentLines, isCount(options.maxRecentLines ?? d.maxRecentLines, 0));
    this.#now = options.now ?? Date.now;
  }

  /**
   * Stores an entry, logs it in today's log, then evicts beyond `maxEntries` (least important, then
   * oldest; expired entries first). Content longer than `maxEntryChars` throws
   * MemoryLimitExceededError; empty content or a bad importance/ttl throws ConfigurationError.
   */
  async remember(input: RememberInput): Promise<KnowledgeEntry> {
    const content = typeof input.content === 'string' ? input.content.trim() : '';
    if (content === '') throw new ConfigurationError('KnowledgeMemory.remember: content must not be empty', { key: 'content' });
    if (content.length > this.maxEntryChars) {
      throw new MemoryLimitExceededError(`KnowledgeMemory.remember: the entry is ${content.length} characters long; the limit is ${this.maxEntryChars} (maxEntryChars)`, { limit: this.maxEntryChars, actual: content.length });
    }
    const importance = input.importance ?? KNOWLEDGE_MEMORY_DEFAULTS.importance;
    if (typeof importance !== 'number' || !(importance >= 0 && importance <= 1)) throw new ConfigurationError(`KnowledgeMemory.remember: importance must be in [0, 1] (got ${String(importance)})`, { key: 'importance' });
    if (input.ttl !== undefined && !(typeof input.ttl === 'number' && input.ttl > 0 && Number.isFinite(input.ttl))) throw new ConfigurationError(`KnowledgeMemory.remember: ttl must be a number of seconds > 0 (got ${String(input.ttl)})`, { key: 'ttl' });
    const categories = [...new Set((input.categories ?? []).map((c) => String(c).trim()).filter((c) => c !== ''))];
    const now = this.#now();
    const entry: KnowledgeEntry = {
      id: `k-${randomUUID()}`,
      content,
      importance,
      categories,
      createdAt: now,
      ...(input.ttl === undefined ? {} : { ttl: input.ttl, expiresAt: now + input.ttl * 1000 }),
    };
    await this.#mutex.run(async () => {
      await this.store.put(entry);
      await this.#evict(now);
    });
    await this.log(`remembered${categories.length === 0 ? '' : ` [${categories.join(', ')}]`} (importance ${importance}): ${content}`);
    return entry;
  }

  /** Deletes expired entries, then the least important (then oldest) beyond maxEntries; returns the ids deleted. */
  async #evict(now: number): Promise<string[]> {
    const all = await this.store.list();
    const expired = all.filter((e) => isExpired(e, now));
    const live = all.filter((e) => !isExpired(e, now)); // most important first, newest first
    const gone = [...expired, ...live.slice(this.maxEntries)];
    for (const entry of gone) await this.store.delete(entry.id);
    return gone.map((e) => e.id);
  }

  /** Deletes an entry; false when there was none. */
  forget(id: string): Promise<boolean> {
    return this.#mutex.run(() => this.store.delete(id));
  }

  /** The live entries, most important first, then newest. */
  async entries(): Promise<KnowledgeEntry[]> {
    const now = this.#now();
    return (await this.store.list()).filter((e) => !isExpired(e, now));
  }

  /** Appends a time-stamped line to today's log. */
  log(text: string): Promise<void> {
    const now = this.#now();
    return this.store.appendLog(dayOf(now), `${clock(now)} ${text}`);
  }

  /** The latest `maxRecentLines` log lines of the last `recentDays` days, oldest first, each prefixed with its day. */
  async recent(): Promise<string[]> {
    const now = this.#now();
    const lines: string[] = [];
    for (let back = this.recentDays - 1; back >= 0; back--) {
      const day = dayOf(now - back * 86_400_000);
      for (const line of await this.store.readLog(day)) lines.push(`${day} ${line}`);
    }
    return this.maxRecentLines === 0 ? [] : lines.slice(-this.maxRecentLines);
  }

  /** The "Long-term Memory" and "Recent Memory" blocks (either may be absent), or undefined when both are empty. */
  async contextBlock(): Promise<string | undefined> {
    const entries = await this.entries();
    const recent = await this.recent();
    const blocks: string[] = [];
    if (entries.length > 0) {
      blocks.push(`${LONG_TERM_BLOCK_TITLE}:\n${entries.map((e) => `- ${e.content}${e.categories.length === 0 ? '' : ` [${e.categories.join(', ')}]`}`).join('\n')}`);
    }
    if (recent.length > 0) blocks.push(`${RECENT_BLOCK_TITLE}:\n${recent.map((l) => `- ${l}`).join('\n')}`);
    return blocks.length === 0 ? undefined : blocks.join('\n\n');
  }
}
