/**
 * RAG chatbot tools: keyword retrieval over a folder of Markdown documents, chunked at headings, with
 * a citable source id per chunk (`<doc id>#<section>`). The folder is `context.docsDir`, else
 * `AGENTLIB_DOCS_DIR`, else the bundled sample (the employee handbook of the fictional company
 * Northwind Labs in fixtures/docs).
 */
import { fileURLToPath } from 'node:url';
import { tool, z } from 'agentlib';
import { KeywordIndex } from 'agentlib/rag';
import { contextString, envString } from '../_shared/context.js';
import { chunkByHeadings, DOC_ID_PATTERN, loadMarkdownDocs, type MarkdownChunk } from '../_shared/markdown-docs.js';

/** The bundled sample documents. */
export const DEFAULT_DOCS_DIR = fileURLToPath(new URL('./fixtures/docs', import.meta.url));

/** Characters of one chunk returned by search_documents at most. */
export const MAX_CHUNK_CHARS = 1_500;
/** Characters get_document returns at most. */
export const MAX_DOCUMENT_CHARS = 20_000;

/** The documents folder for a call: `context.docsDir`, else AGENTLIB_DOCS_DIR, else the bundled sample. */
export function docsDir(context: unknown): string {
  return contextString(context, 'docsDir') ?? envString('AGENTLIB_DOCS_DIR') ?? DEFAULT_DOCS_DIR;
}

/** One retrieved passage with its citation. */
export interface RetrievedChunk {
  /** Cite this: `<doc id>#<section>`. */
  source: string;
  title: string;
  section: string;
  score: number;
  text: string;
}

/** Retrieves the best `limit` heading-chunks of the documents in `dir` for `query` (BM25; section headings weigh double). */
export function retrieve(dir: string, query: string, limit: number): RetrievedChunk[] {
  const chunks = loadMarkdownDocs(dir).flatMap((doc) => chunkByHeadings(doc));
  const index = new KeywordIndex<MarkdownChunk>(chunks, (chunk) => [
    { text: chunk.heading, weight: 2 },
    { text: chunk.text, weight: 1 },
  ]);
  return index.search(query, limit).map(({ item, score }) => ({
    source: item.id,
    title: item.docTitle,
    section: item.heading,
    score,
    text: item.text.length > MAX_CHUNK_CHARS ? `${item.text.slice(0, MAX_CHUNK_CHARS)}…` : item.text,
  }));
}

/** Searches the document collection and returns the best passages with source ids to cite. */
export const searchDocuments = tool({
  name: 'search_documents',
  description:
    'Search the document collection for passages relevant to a question. Returns up to top_k passages, best first, as ' +
    '{source, title, section, score, text}. Answer only from these passages and cite each fact with its source in ' +
    'square brackets, e.g. [time-off-policy#parental-leave]. Search again with other words if nothing fits.',
  parameters: z.object({
    query: z.string().min(1).max(500).describe('What to look for: the key words of the question'),
    top_k: z.number().int().min(1).max(10).default(4).describe('How many passages to return (1-10). Default 4'),
  }),
  execute: ({ query, top_k }, ctx) => {
    const results = retrieve(docsDir(ctx.context), query, top_k);
    return results.length > 0 ? { results } : { results: [], note: 'No passage matches. Try other keywords, or tell the user the documents do not cover this.' };
  },
});

/** Reads a whole document, or one section when given a `doc#section` source id. */
export const getDocument = tool({
  name: 'get_document',
  description:
    'Read a whole document by id (e.g. "expenses-and-travel"), or one section by a source id from search_documents ' +
    '(e.g. "expenses-and-travel#meals-and-per-diem"). Returns {id, title, sections, content}.',
  parameters: z.object({ id: z.string().min(1).max(200).describe('Document id or source id') }),
  execute: ({ id }, ctx) => {
    const [docPart = '', sectionPart] = id.trim().toLowerCase().split('#', 2);
    const docs = loadMarkdownDocs(docsDir(ctx.context));
    const doc = DOC_ID_PATTERN.test(docPart) ? docs.find((d) => d.id === docPart.replace(/\.md$/, '')) : undefined;
    if (!doc) throw new Error(`no document with id "${docPart}"; known ids: ${docs.map((d) => d.id).join(', ')}`);
    const chunks = chunkByHeadings(doc);
    if (sectionPart !== undefined) {
      const chunk = chunks.find((c) => c.id === `${doc.id}#${sectionPart}`);
      if (!chunk) throw new Error(`no section "${sectionPart}" in ${doc.id}; sections: ${chunks.map((c) => c.id).join(', ')}`);
      return { id: chunk.id, title: doc.title, section: chunk.heading, content: chunk.text };
    }
    const content = doc.body.length > MAX_DOCUMENT_CHARS ? `${doc.body.slice(0, MAX_DOCUMENT_CHARS)}\n[... document truncated ...]` : doc.body;
    return { id: doc.id, title: doc.title, sections: chunks.map((c) => c.id), content };
  },
});
