import { z } from 'zod';
import { tool } from '../../tools/tool.js';
import type { Tool } from '../../tools/types.js';
import { documentSource, type SearchResult } from '../document.js';
import type { MetadataFilter } from '../filter/metadata-filter.js';
import type { KnowledgeBase, SearchMode } from '../knowledge-base.js';
import type { Reranker } from '../rerankers/reranker.js';
import type { RunUsageLink } from './run-usage.js';

/** Options of the RAG tools. */
export interface RagToolOptions {
  /** Tool name. Defaults: `search_knowledge_base`, `semantic_search`, `hybrid_search`. */
  name?: string;
  /** Tool description (10–1024 characters). */
  description?: string;
  /** Results when the model does not ask for a number. Default 3. */
  topK?: number;
  /** Results scoring below this are dropped. Default 0. */
  scoreThreshold?: number;
  /** Restricts every search. */
  filter?: MetadataFilter;
  reranker?: Reranker;
  /** Puts the embedding usage of each search into the run's usage and emits the retrieval events on the run's stream. */
  usageLink?: RunUsageLink;
}

/** How a result is cited: its source, plus `#page=N` for a page of a PDF. */
export function citation(result: SearchResult): string {
  const source = documentSource(result.document) ?? result.document.id ?? 'unknown';
  const page = result.document.metadata['page'];
  return typeof page === 'number' ? `${source}#page=${page}` : source;
}

/** A search result as the model sees it. */
export interface CitedPassage {
  /** Cite this, in square brackets. */
  source: string;
  score: number;
  text: string;
  title?: string;
}

function toPassages(results: readonly SearchResult[]): CitedPassage[] {
  return results.map((result) => {
    const passage: CitedPassage = { source: citation(result), score: Math.round(result.score * 10_000) / 10_000, text: result.document.text };
    const title = result.document.metadata['title'];
    if (typeof title === 'string') passage.title = title;
    return passage;
  });
}

function makeTool(kb: KnowledgeBase, mode: SearchMode, defaults: { name: string; description: string }, options: RagToolOptions): Tool {
  const topK = options.topK ?? 3;
  return tool({
    name: options.name ?? defaults.name,
    description: options.description ?? defaults.description,
    parameters: z.object({
      query: z.string().min(1).max(1000).describe('What to look for'),
      top_k: z.number().int().min(1).max(50).default(topK).describe(`How many passages to return. Default ${topK}`),
    }),
    execute: async ({ query, top_k }, ctx) => {
      const run = options.usageLink?.runOf(ctx.runId);
      const usage = run?.usage;
      const tokensBefore = usage?.embeddingTokens ?? 0;
      const started = Date.now();
      await run?.emit('retrieval-start', { callId: ctx.callId, toolName: ctx.toolName, query, mode, topK: top_k });
      const results = await kb.search(query, {
        topK: top_k,
        mode,
        scoreThreshold: options.scoreThreshold ?? 0,
        signal: ctx.signal,
        ...(options.filter ? { filter: options.filter } : {}),
        ...(options.reranker ? { reranker: options.reranker } : {}),
        ...(usage ? { usage } : {}),
      });
      await run?.emit('retrieval-end', {
        callId: ctx.callId,
        toolName: ctx.toolName,
        query,
        mode,
        results: results.length,
        sources: results.map(citation),
        durationMs: Date.now() - started,
        embeddingTokens: (usage?.embeddingTokens ?? 0) - tokensBefore,
      });
      if (results.length === 0) return { results: [], note: 'Nothing in the knowledge base matches. Say so rather than guessing.' };
      return { results: toPassages(results), note: 'Answer from these passages only and cite each fact with its source in square brackets, e.g. [' + citation(results[0] as SearchResult) + '].' };
    },
  });
}

/**
 * The retrieval tool of a RAG agent: finds the passages most relevant to the model's query
 * (vector search by default; `mode: 'hybrid'` adds BM25) and returns them with their sources to cite.
 */
export function RAGTool(kb: KnowledgeBase, options: RagToolOptions & { mode?: SearchMode } = {}): Tool {
  return makeTool(
    kb,
    options.mode ?? 'vector',
    {
      name: 'search_knowledge_base',
      description: 'Search the knowledge base for passages relevant to a question. Returns {results: [{source, score, text}]}, best first. Answer from them and cite sources in square brackets.',
    },
    options,
  );
}

/** Vector (embedding) search over a knowledge base, with sources to cite. */
export function SemanticSearchTool(kb: KnowledgeBase, options: RagToolOptions = {}): Tool {
  return makeTool(kb, 'vector', { name: 'semantic_search', description: 'Search documents by meaning (embedding similarity). Returns passages with their sources to cite in square brackets.' }, options);
}

/** Hybrid (vector + BM25 keyword, fused with RRF) search over a knowledge base, with sources to cite. */
export function HybridSearchTool(kb: KnowledgeBase, options: RagToolOptions = {}): Tool {
  return makeTool(kb, 'hybrid', { name: 'hybrid_search', description: 'Search documents by meaning and by exact keywords together. Returns passages with their sources to cite in square brackets.' }, options);
}
