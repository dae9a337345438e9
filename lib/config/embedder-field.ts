import { EMBEDDER_KINDS } from '../rag/embedders/embedder-names.js';
import { report } from './read-context.js';
import { str, type Reader } from './readers.js';

/** An embedder name, `kind[:detail]` (`hashing:512`, `openai:text-embedding-3-small`), of a kind createEmbedder knows. */
export const readEmbedderName: Reader<string> = (ctx, node, path) => {
  const name = str({ nonEmpty: true })(ctx, node, path);
  if (name === undefined) return undefined;
  const kind = name.split(':', 1)[0] ?? '';
  if ((EMBEDDER_KINDS as readonly string[]).includes(kind)) return name;
  report(ctx, node, path, `"${path}" must be ${EMBEDDER_KINDS.join(', ')} (optionally :model); got ${JSON.stringify(name)}`);
  return undefined;
};
