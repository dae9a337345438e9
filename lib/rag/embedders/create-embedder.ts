import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { closestMatch } from '../../core/suggest.js';
import type { Provider } from '../../providers/spec.js';
import type { EmbeddingProvider } from './embedding-provider.js';
import { HashingEmbedder } from './hashing-embedder.js';
import { ProviderEmbedder } from './provider-embedder.js';

import { EMBEDDER_KINDS } from './embedder-names.js';

export { DEFAULT_EMBEDDER, EMBEDDER_KINDS } from './embedder-names.js';

/** Options of {@link createEmbedder}. */
export interface CreateEmbedderOptions {
  /** Builds the provider of `openai` / `gemini` / `ollama` names (default the adapters' createProvider). */
  createProvider?: (type: 'openai' | 'gemini' | 'ollama') => Promise<Pick<Provider, 'name' | 'embed'>>;
}

/**
 * The embedder a name describes, `kind[:detail]`: `hashing` (offline, lexical, 384 dimensions) or
 * `hashing:512`; `openai`, `openai:text-embedding-3-large`, `gemini[:model]`, `ollama[:model]`
 * (through the provider adapters, keys from their usual environment variables); `cohere[:model]`
 * (the Cohere SDK, CO_API_KEY). An unknown kind is a ConfigurationError with a suggestion.
 */
export async function createEmbedder(name: string, options: CreateEmbedderOptions = {}): Promise<EmbeddingProvider> {
  const colon = name.indexOf(':');
  const kind = (colon < 0 ? name : name.slice(0, colon)).trim();
  const detail = colon < 0 ? undefined : name.slice(colon + 1).trim() || undefined;
  switch (kind) {
    case 'hashing': {
      if (detail === undefined) return new HashingEmbedder();
      const dimensions = Number(detail);
      if (!/^\d+$/.test(detail)) throw new ConfigurationError(`embedder "${name}": hashing takes a dimension count (hashing:384), got ${JSON.stringify(detail)}`, { key: 'embedder' });
      return new HashingEmbedder({ dimensions });
    }
    case 'openai':
    case 'gemini':
    case 'ollama': {
      const provider = options.createProvider
        ? await options.createProvider(kind)
        : await (await import('../../providers/create-provider.js')).createProvider(kind);
      if (typeof provider.embed !== 'function') throw new ConfigurationError(`embedder "${name}": the ${kind} provider has no embeddings`, { key: 'embedder' });
      return new ProviderEmbedder(provider, detail === undefined ? {} : { model: detail });
    }
    case 'cohere': {
      const { CohereEmbedder } = await import('../cohere.js');
      return new CohereEmbedder(detail === undefined ? {} : { model: detail });
    }
    default: {
      const suggestion = closestMatch(kind, EMBEDDER_KINDS);
      throw new ConfigurationError(`unknown embedder "${name}"; expected ${EMBEDDER_KINDS.join(', ')} (optionally :model)`, {
        key: 'embedder',
        ...(suggestion === undefined ? {} : { suggestion }),
      });
    }
  }
}
