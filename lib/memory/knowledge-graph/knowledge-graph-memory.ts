import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Message } from '../../core/message.js';
import type { UsageStats } from '../../core/usage.js';
import { structuredCall, transcript, type ExtractorOptions } from '../extraction-call.js';
import { MemoryTripleStore } from './memory-triple-store.js';
import { words, type Triple, type TripleQuery } from './triple.js';
import type { TripleStore } from './triple-store.js';

/** Defaults of KnowledgeGraphMemory. */
export const KNOWLEDGE_GRAPH_DEFAULTS = { maxInjected: 20, minConfidence: 0 } as const;

/** Title of the context block KnowledgeGraphMemory puts before a run. */
export const RELATIONSHIPS_BLOCK_TITLE = 'Known Relationships';

/** Options of {@link KnowledgeGraphMemory}. */
export interface KnowledgeGraphMemoryOptions {
  /** Where the triples live; default a MemoryTripleStore (this process only). */
  store?: TripleStore;
  /** Most triples listed in the "Known Relationships" block. Default 20. */
  maxInjected?: number;
  /** Extracted triples below this confidence are not stored. Default 0 (all). */
  minConfidence?: number;
  /** Extraction model; default: the agent's provider and model. */
  extractor?: ExtractorOptions;
}

/** JSON Schema of one extraction reply. */
export const TRIPLE_EXTRACTION_SCHEMA = {
  type: 'object',
  properties: {
    triples: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          subject: { type: 'string' },
          relation: { type: 'string' },
          object: { type: 'string' },
          confidence: { type: 'number', minimum: 0, maximum: 1 },
        },
        required: ['subject', 'relation', 'object', 'confidence'],
        additionalProperties: false,
      },
    },
  },
  required: ['triples'],
  additionalProperties: false,
} as const;

const SYSTEM = [
  'You extract factual relationships stated in a conversation as (subject, relation, object) triples,',
  'e.g. ("Ada", "works_at", "Acme"). Relations are short snake_case verbs. Give each a confidence in [0, 1].',
  'Only what the conversation states; no guesses. An empty list when there are none.',
].join(' ');

/** Words too common to select relationships by. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'who', 'whom', 'where', 'when', 'which', 'does', 'did', 'are', 'was', 'were', 'has', 'have', 'had', 'how', 'why', 'you', 'your', 'this', 'that', 'from', 'about', 'into', 'tell', 'know', 'can', 'could', 'would', 'should', 'there', 'their', 'them', 'they', 'its', 'our', 'not', 'any', 'all']);

/** The keywords of a query: words of 3 or more characters (digits: any length) that are not stop words. */
export function queryKeywords(query: string): string[] {
  return [...new Set(words(query).filter((w) => (w.length >= 3 || /^\p{N}+$/u.test(w)) && !STOP_WORDS.has(w)))];
}

/** The triples of an extraction reply (malformed items skipped); a reply of the wrong shape throws. */
export function parseExtractedTriples(value: unknown): Triple[] {
  const list = (value as { triples?: unknown } | null)?.triples;
  if (!Array.isArray(list)) throw new SyntaxError('knowledge-graph extraction: the reply has no "triples" list');
  const found: Triple[] = [];
  for (const item of list as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { subject, relation, object, confidence } = item as Record<string, unknown>;
    if (typeof subject !== 'string' || typeof relation !== 'string' || typeof object !== 'string') continue;
    if (subject.trim() === '' || relation.trim() === '' || object.trim() === '') continue;
    const c = typeof confidence === 'number' && Number.isFinite(confidence) ? Math.min(1, Math.max(0, confidence)) : 1;
    found.push({ subject, relation, object, confidence: c });
  }
  return found;
}

/**
 * Relationships the conversation states, as (subject, relation, object, confidence) triples in a
 * TripleStore. After each run one structured LLM call extracts the run's triples; before each
 * run, a "Known Relationships" block lists the triples relevant to the input (by keyword).
 */
export class KnowledgeGraphMemory {
  readonly store: TripleStore;
  readonly maxInjected: number;
  readonly minConfidence: number;
  readonly extractor: ExtractorOptions | undefined;

  constructor(options: KnowledgeGraphMemoryOptions = {}) {
    this.store = options.store ?? new MemoryTripleStore();
    const maxInjected = options.maxInjected ?? KNOWLEDGE_GRAPH_DEFAULTS.maxInjected;
    if (!Number.isInteger(maxInjected) || maxInjected < 1) throw new ConfigurationError(`KnowledgeGraphMemory: maxInjected must be an integer ≥ 1 (got ${String(maxInjected)})`, { key: 'knowledgeGraph.maxInjected' });
    const minConfidence = options.minConfidence ?? KNOWLEDGE_GRAPH_DEFAULTS.minConfidence;
    if (!(minConfidence >= 0 && minConfidence <= 1)) throw new ConfigurationError(`KnowledgeGraphMemory: minConfidence must be in [0, 1] (got ${String(minConfidence)})`, { key: 'knowledgeGraph.minConfidence' });
    this.maxInjected = maxInjected;
    this.minConfidence = minConfidence;
    this.extractor = options.extractor;
  }

  /** Adds triples (those under minConfidence are skipped); returns how many were new. */
  add(triples: readonly Triple[]): Promise<number> {
    return this.store.add(triples.filter((t) => t.confidence >= this.minConfidence));
  }

  /** Triples by subject, relation and/or object (case-insensitive), highest confidence first. */
  query(query: TripleQuery = {}): Promise<Triple[]> {
    return this.store.query(query);
  }

  /** The triples relevant to `query`: those sharing most of its keywords, up to `limit` (default maxInjected). */
  queryRelevant(query: string, limit = this.maxInjected): Promise<Triple[]> {
    const keywords = queryKeywords(query);
    return keywords.length === 0 ? Promise.resolve([]) : this.store.search(keywords, limit);
  }

  /** Asks the extraction model for the triples of `messages` (one structured call), without storing them. */
  async extract(messages: readonly Message[], extractor: ExtractorOptions | undefined = this.extractor, signal?: AbortSignal): Promise<{ triples: Triple[]; usage: UsageStats | undefined }> {
    if (extractor === undefined) throw new ConfigurationError('KnowledgeGraphMemory.extract needs an extractor (a provider): give `extractor` to the memory, or use it through an Agent', { key: 'knowledgeGraph.extractor' });
    const { value, usage } = await structuredCall(extractor, {
      name: 'triples',
      system: SYSTEM,
      user: `Conversation:\n${transcript(messages)}`,
      schema: TRIPLE_EXTRACTION_SCHEMA,
      ...(signal === undefined ? {} : { signal }),
    });
    return { triples: parseExtractedTriples(value), usage };
  }

  /** The "Known Relationships" block for `query`, or undefined when no triple is relevant. */
  async contextBlock(query: string): Promise<string | undefined> {
    const relevant = await this.queryRelevant(query);
    if (relevant.length === 0) return undefined;
    const lines = relevant.map((t) => `- ${t.subject} —${t.relation}→ ${t.object}${t.confidence < 1 ? ` (confidence ${t.confidence})` : ''}`);
    return `${RELATIONSHIPS_BLOCK_TITLE}:\n${lines.join('\n')}`;
  }
}
