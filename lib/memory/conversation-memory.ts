import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';
import type { Provider } from '../providers/spec.js';
import { AsyncMutex } from './async-mutex.js';
import { cleanMessage } from './clean-message.js';
import { messageTokens } from './message-tokens.js';
import { parseMemorySnapshot, type MemorySnapshot, MEMORY_SNAPSHOT_VERSION } from './memory-snapshot.js';
import { summarize, type SummarizeOptions } from './summarizer.js';
import { windowStart } from './window.js';

/** Defaults of ConversationMemory (REFERENCE.md §1). */
export const MEMORY_DEFAULTS = { maxMessages: 20 } as const;

/** Options of {@link ConversationMemory}. */
export interface ConversationMemoryOptions {
  /** Most messages kept in the window. Default 20; `Infinity` keeps every message. */
  maxMessages?: number;
  /** Most tokens kept in the window (by `countTokens`; default estimate: chars / 4 plus framing). No limit by default. */
  maxTokens?: number;
  /** Summarise the messages that leave the window, instead of forgetting them. Default false. */
  summarizeOnTrim?: boolean;
  /** Provider of the summaries. Default: the agent's provider (a memory used on its own must set it). */
  summarizeProvider?: Provider;
  /** Model of the summaries. Default: the summary provider's default model (the agent's model for the agent's provider). */
  summarizeModel?: string;
  /** Cap of a summary reply, in tokens. Default 500. */
  summarizeMaxTokens?: number;
  /** Tokens of one message. Default: the chars / 4 estimate. */
  countTokens?: (message: Message) => number;
}

/** What happened to the window on an append. */
export interface TrimReport {
  /** Messages that left the window. */
  removed: number;
  /** Messages left in the window. */
  remaining: number;
  /** Messages summarised (0 when summaries are off or nothing was trimmed). */
  summarized: number;
  /** Length of the summary after the append. */
  summaryChars: number;
}

/** Per-append options: the summary provider to fall back on, cancellation and event hooks. */
export interface AppendOptions {
  /** Used when the memory has no `summarizeProvider` (the agent passes its own provider and model). */
  fallbackSummarizer?: SummarizeOptions;
  signal?: AbortSignal;
  /** Called after a trim, before any summary. */
  onTrim?: (report: { removed: number; remaining: number }) => Promise<void> | void;
  /** Called after a summary was made. */
  onSummarize?: (report: { messagesSummarized: number; summaryChars: number }) => Promise<void> | void;
}

function checkLimit(name: string, value: number | undefined): number | undefined {
  if (value === undefined || value === Infinity) return undefined;
  if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`ConversationMemory.${name} must be a positive integer, got ${String(value)}`, { key: name });
  return value;
}

/** The header of the system message that carries the summary into a run. */
export const SUMMARY_HEADER = 'Summary of the earlier conversation:';

/**
 * The conversation an agent remembers: a window of the latest messages within a message count
 * (default 20) and an optional token limit, plus an optional running summary of what left the
 * window. The window never separates a tool call from its result (parallel calls included) and
 * always opens on a USER or SYSTEM message. `<think>` blocks are removed before anything is
 * stored. Appends are serialised: two runs sharing one memory each add their messages as one
 * contiguous block, never interleaved.
 *
 * @example
 * const memory = new ConversationMemory({ maxMessages: 30, summarizeOnTrim: true });
 * const agent = new Agent({ provider, memory });
 */
export class ConversationMemory {
  readonly maxMessages: number | undefined;
  readonly maxTokens: number | undefined;
  readonly summarizeOnTrim: boolean;
  readonly #options: ConversationMemoryOptions;
  readonly #countTokens: (message: Message) => number;
  readonly #mutex = new AsyncMutex();
  #messages: Message[] = [];
  #summary = '';

  constructor(options: ConversationMemoryOptions = {}) {
    this.maxMessages = checkLimit('maxMessages', options.maxMessages ?? MEMORY_DEFAULTS.maxMessages);
    this.maxTokens = checkLimit('maxTokens', options.maxTokens);
    checkLimit('summarizeMaxTokens', options.summarizeMaxTokens);
    this.summarizeOnTrim = options.summarizeOnTrim ?? false;
    if (!this.summarizeOnTrim && (options.summarizeProvider ?? options.summarizeModel ?? options.summarizeMaxTokens) !== undefined) {
      throw new ConfigurationError('ConversationMemory: summarizeProvider, summarizeModel and summarizeMaxTokens need summarizeOnTrim: true (they would be ignored)', { key: 'summarizeOnTrim' });
    }
    this.#options = { ...options };
    this.#countTokens = options.countTokens ?? messageTokens;
  }

  /** The messages in the window (copies). */
  get messages(): readonly Message[] {
    return structuredClone(this.#messages);
  }

  /** Messages in the window. */
  get size(): number {
    return this.#messages.length;
  }

  /** The running summary of the messages that left the window ('' when there is none). */
  get summary(): string {
    return this.#summary;
  }

  /** What a run starts from: the summary as a SYSTEM message (when there is one), then the window. */
  contextMessages(): Message[] {
    const messages = structuredClone(this.#messages);
    return this.#summary === '' ? messages : [{ role: Role.SYSTEM, content: `${SUMMARY_HEADER}\n${this.#summary}` }, ...messages];
  }

  /**
   * Adds `messages` as one block (after every earlier append has finished), then trims the window
   * and, with `summarizeOnTrim`, folds the trimmed messages into the summary. When the summary
   * call fails, nothing is dropped (the window stays over its limit until the next append) and
   * the error is thrown.
   */
  append(messages: readonly Message[], options: AppendOptions = {}): Promise<TrimReport> {
    const cleaned = messages.map(cleanMessage);
    return this.#mutex.run(async () => {
      this.#messages.push(...cleaned);
      return this.#trim(options);
    });
  }

  /** Empties the window and the summary. */
  clear(): void {
    this.#messages = [];
    this.#summary = '';
  }

  /** Replaces the window and the summary (a session being loaded), then applies the limits without summarising. */
  restore(messages: readonly Message[], summary = ''): void {
    this.#messages = messages.map(cleanMessage);
    this.#summary = summary;
    this.#messages = this.#messages.slice(this.#windowStart());
  }

  /** An independent copy: same options, same window and summary; later changes to either do not reach the other. */
  branch(): ConversationMemory {
    const copy = new ConversationMemory(this.#options);
    copy.#messages = structuredClone(this.#messages);
    copy.#summary = this.#summary;
    return copy;
  }

  /** The memory as versioned plain JSON (the window, the summary and the limits). */
  toJSON(): MemorySnapshot {
    return {
      kind: 'conversation-memory',
      version: MEMORY_SNAPSHOT_VERSION,
      messages: structuredClone(this.#messages),
      summary: this.#summary,
      maxMessages: this.maxMessages ?? null,
      ...(this.maxTokens === undefined ? {} : { maxTokens: this.maxTokens }),
    };
  }

  /**
   * A memory from `toJSON` output. The limits stored in the snapshot apply unless `options`
   * sets them; providers and token counters are never stored, so pass them in `options`.
   */
  static fromJSON(data: unknown, options: ConversationMemoryOptions = {}): ConversationMemory {
    const snapshot = parseMemorySnapshot(data);
    const memory = new ConversationMemory({
      ...(snapshot.maxMessages === undefined ? {} : { maxMessages: snapshot.maxMessages ?? Infinity }),
      ...(snapshot.maxTokens === undefined ? {} : { maxTokens: snapshot.maxTokens }),
      ...options,
    });
    memory.#messages = snapshot.messages.map(cleanMessage);
    memory.#summary = snapshot.summary;
    return memory;
  }

  #windowStart(): number {
    return windowStart(this.#messages, { maxMessages: this.maxMessages, maxTokens: this.maxTokens, countTokens: this.#countTokens });
  }

  async #trim(options: AppendOptions): Promise<TrimReport> {
    const start = this.#windowStart();
    if (start === 0) return { removed: 0, remaining: this.#messages.length, summarized: 0, summaryChars: this.#summary.length };
    const removed = this.#messages.slice(0, start);
    let summarized = 0;
    if (this.summarizeOnTrim) {
      const summarizer = this.#summarizer(options);
      const { summary } = await summarize(summarizer, this.#summary, removed, options.signal);
      this.#summary = summary;
      summarized = removed.length;
    }
    this.#messages = this.#messages.slice(start);
    await options.onTrim?.({ removed: removed.length, remaining: this.#messages.length });
    if (summarized > 0) await options.onSummarize?.({ messagesSummarized: summarized, summaryChars: this.#summary.length });
    return { removed: removed.length, remaining: this.#messages.length, summarized, summaryChars: this.#summary.length };
  }

  #summarizer(options: AppendOptions): SummarizeOptions {
    const own = this.#options.summarizeProvider;
    const base = own === undefined ? options.fallbackSummarizer : { provider: own };
    if (base === undefined) {
      throw new ConfigurationError('ConversationMemory: summarizeOnTrim needs a summarizeProvider when the memory is used outside an agent', { key: 'summarizeProvider' });
    }
    const model = this.#options.summarizeModel ?? base.model;
    const maxTokens = this.#options.summarizeMaxTokens ?? base.maxTokens;
    return { provider: base.provider, ...(model === undefined ? {} : { model }), ...(maxTokens === undefined ? {} : { maxTokens }) };
  }
}
