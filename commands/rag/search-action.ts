import { writeData, writeJson } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import { ConfigurationError } from '../../lib/core/errors/configuration-error.js';
import { VectorStoreError } from '../../lib/core/errors/vector-store-error.js';
import type { SearchResult } from '../../lib/rag/document.js';
import type { MetadataFilter } from '../../lib/rag/filter/metadata-filter.js';
import type { SearchMode } from '../../lib/rag/knowledge-base.js';
import type { Reranker } from '../../lib/rag/rerankers/reranker.js';
import { citation } from '../../lib/rag/tools/rag-tools.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { openIndex, parseFilter, usageOnFilterError } from './open-index.js';

async function reranker(name: unknown): Promise<Reranker | undefined> {
  if (name === undefined) return undefined;
  if (name === 'cohere') return new (await import('../../lib/rag/cohere.js')).CohereReranker();
  if (name === 'jina') return new (await import('../../lib/rag/rerankers/jina-reranker.js')).JinaReranker();
  throw new UsageError(`--rerank must be cohere or jina, got ${JSON.stringify(name)}`);
}

function table(results: readonly SearchResult[], width: number): string {
  const rows = results.map((result, i) => {
    const text = result.document.text.replace(/\s+/g, ' ').trim();
    return { rank: String(i + 1), score: result.score.toFixed(4), source: citation(result), text };
  });
  const sourceWidth = Math.min(40, Math.max(6, ...rows.map((row) => row.source.length)));
  const textWidth = Math.max(20, width - sourceWidth - 16);
  const head = `${'#'.padStart(2)}  ${'score'.padEnd(6)}  ${'source'.padEnd(sourceWidth)}  text`;
  const lines = rows.map((row) => {
    const source = row.source.length > sourceWidth ? `${row.source.slice(0, sourceWidth - 1)}…` : row.source.padEnd(sourceWidth);
    const text = row.text.length > textWidth ? `${row.text.slice(0, textWidth - 1)}…` : row.text;
    return `${row.rank.padStart(2)}  ${row.score}  ${source}  ${text}`;
  });
  return [head, ...lines].join('\n');
}

/** `agentlib rag search "<query>"`: the best passages with scores and sources; exit 4 when nothing matches. */
export async function runSearch(args: CommandArguments, inputs: readonly string[], context: CommandContext): Promise<number> {
  const { io } = context;
  const query = inputs.join(' ').trim();
  if (query === '') throw new UsageError('rag search needs a query: agentlib rag search "how do refunds work"');
  const topK = args.topK ?? 3;
  if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > 1000) throw new UsageError(`--top-k must be an integer from 1 to 1000, got ${JSON.stringify(topK)}`);
  const mode = (args.mode ?? 'vector') as SearchMode;
  const filter = parseFilter(args.filter) as MetadataFilter | undefined;
  const rerank = await reranker(args.rerank);
  const { kb, url } = await openIndex(args, io.cwd ?? process.cwd());
  try {
    const results = await kb
      .search(query, { topK, mode, signal: context.signal, ...(filter ? { filter } : {}), ...(rerank ? { reranker: rerank } : {}) })
      .catch((error: unknown) => {
        if (VectorStoreError.isInstance(error) && /dimensions/.test(error.message)) {
          throw new ConfigurationError(`${error.message}: search the index with the embedder it was built with (agentlib rag ls --store ${url} shows it)`, { key: 'embedder', cause: error });
        }
        return usageOnFilterError(error);
      });
    const foreign = mode === 'bm25' ? undefined : results.find((r) => typeof r.document.metadata['embedder'] === 'string' && r.document.metadata['embedder'] !== kb.embedder.name);
    if (foreign !== undefined) {
      throw new ConfigurationError(`the index in ${url} was embedded with ${String(foreign.document.metadata['embedder'])}, not ${kb.embedder.name}: pass --embedder ${String(foreign.document.metadata['embedder'])}`, { key: 'embedder' });
    }
    if (args.json === true) {
      writeJson(io, {
        query,
        store: url,
        mode,
        embedder: kb.embedder.name,
        results: results.map((r) => ({ id: r.document.id, score: r.score, source: citation(r), text: r.document.text, metadata: r.document.metadata })),
      });
    } else if (results.length === 0) writeData(io, `No passages match "${query}" in ${url}.`);
    else writeData(io, table(results, io.stdout.columns ?? 100));
    return results.length === 0 ? 4 : 0;
  } finally {
    await kb.store.close();
  }
}
