import type { ResponseCache } from '../agent/types.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Provider } from '../providers/spec.js';
import type { CacheSettings } from './cache-node.js';

/**
 * Opens the cache an agent file's `cache:` names (lib/cache is imported only here, when a file
 * has one): the store by URL, wrapped in a SemanticCache when `semantic` is set — over the agent
 * provider's embeddings, or over `semantic.embedder` (createEmbedder: hashing, openai, gemini,
 * ollama, cohere), which needs no embeddings from the agent's provider. Relative `sqlite://` paths (and the default `.agentlib/agentlib.db`)
 * resolve against `baseDir`, the agent file's directory, like every path in the file.
 */
export async function openConfiguredCache(settings: CacheSettings, provider: Provider, label: string, baseDir: string): Promise<ResponseCache> {
  const { openCache } = await import('../cache/open-cache.js');
  const options = {
    cwd: baseDir,
    ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
    ...(settings.maxSize === undefined ? {} : { maxSize: settings.maxSize }),
    ...(settings.ttl === undefined ? {} : { defaultTtl: settings.ttl }),
  };
  if (settings.semantic?.embedder !== undefined) {
    // The embedder first: an unknown model or a missing SDK fails before the store is opened.
    const { createEmbedder } = await import('../rag/embedders/create-embedder.js');
    const embedder = await createEmbedder(settings.semantic.embedder);
    const { SemanticCache } = await import('../cache/semantic-cache.js');
    return new SemanticCache(
      {
        embed: async (request) => {
          const embeddings = await embedder.embed(request.texts, { purpose: 'query' });
          return { embeddings, usage: { tokens: 0 }, model: embedder.name };
        },
      },
      { exact: openCache(settings.url, options), ...semanticOptions(settings) },
    );
  }
  const exact = openCache(settings.url, options);
  if (settings.semantic === undefined) return exact;
  if (typeof provider.embed !== 'function' || !provider.capabilities.embeddings) {
    await exact.close();
    throw new ConfigurationError(`${label}: cache.semantic needs a provider with embeddings; "${provider.name}" has none`, { key: 'cache.semantic' });
  }
  const { SemanticCache } = await import('../cache/semantic-cache.js');
  return new SemanticCache(provider, {
    exact,
    ...semanticOptions(settings),
    ...(settings.semantic.embeddingModel === undefined ? {} : { embeddingModel: settings.semantic.embeddingModel }),
  });
}

/** The SemanticCache options `cache:` sets besides the embedder: size, TTL, threshold. */
function semanticOptions(settings: CacheSettings): { maxSize?: number; defaultTtl?: number; similarityThreshold?: number } {
  return {
    ...(settings.maxSize === undefined ? {} : { maxSize: settings.maxSize }),
    ...(settings.ttl === undefined ? {} : { defaultTtl: settings.ttl }),
    ...(settings.semantic?.threshold === undefined ? {} : { similarityThreshold: settings.semantic.threshold }),
  };
}
