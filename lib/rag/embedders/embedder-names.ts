/** The embedder kinds an embedder name may start with (`kind[:detail]`). */
export const EMBEDDER_KINDS = ['hashing', 'openai', 'gemini', 'ollama', 'cohere'] as const;

/** The embedder an index uses when none is named: the offline, lexical HashingEmbedder. */
export const DEFAULT_EMBEDDER = 'hashing';
