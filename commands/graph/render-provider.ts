import type { ProviderConfig, ProviderSpec, ProviderType } from '../../lib/providers/create-provider.js';
import type { Provider } from '../../lib/providers/spec.js';

/** The provider name a spec names (its first entry for a fallback list). */
function specName(spec: ProviderSpec): string {
  const list = (Array.isArray(spec) ? spec : [spec]) as readonly (ProviderType | ProviderConfig)[];
  const first = list[0];
  if (first === undefined) return 'none';
  return typeof first === 'string' ? first : first.type;
}

/**
 * What `agentlib graph render` builds an agent node's provider with: drawing a graph reads its
 * structure and never calls a model, so it needs no API key. Any call is a bug and throws.
 */
export async function renderOnlyProvider(spec: ProviderSpec): Promise<Provider> {
  const name = specName(spec);
  const refuse = (): never => {
    throw new Error(`agentlib graph render does not call models (the ${name} provider of an agent node was asked to)`);
  };
  return Promise.resolve({
    name,
    defaultModel: 'none',
    capabilities: { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: false },
    complete: refuse,
    stream: refuse,
  });
}
