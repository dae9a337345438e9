/**
 * RAG chatbot tools. Retrieval itself is agentlib's: agent.yaml's `retrieval:` gives the agent
 * `search_documents` over index.db (the indexed fixtures/docs, see README.md). This module adds
 * `get_document`, which reads a whole indexed document (or one of its sections) when a passage is not
 * enough.
 */
import { fileURLToPath } from 'node:url';
import { tool, z } from 'agentlib';
import { chunkByHeadings, DOC_ID_PATTERN, loadMarkdownDocs } from '../_shared/markdown-docs.js';

/** The indexed sample documents (the employee handbook of the fictional company Northwind Labs). */
export const DEFAULT_DOCS_DIR = fileURLToPath(new URL('./fixtures/docs', import.meta.url));

/** How index.db names the documents of DEFAULT_DOCS_DIR (sources are relative to this folder). */
export const DOCS_SOURCE_PREFIX = 'fixtures/docs/';

/** Characters get_document returns at most. */
export const MAX_DOCUMENT_CHARS = 20_000;

/**
 * The document id of a source as search_documents cites it (`fixtures/docs/remote-work.md`), or of
 * a bare id (`remote-work`, `remote-work.md`); undefined for anything else (other folders, `..`).
 */
export function documentId(source: string): string | undefined {
  let id = source.trim().toLowerCase();
  if (id.startsWith(DOCS_SOURCE_PREFIX)) id = id.slice(DOCS_SOURCE_PREFIX.length);
  if (id.endsWith('.md')) id = id.slice(0, -3);
  return DOC_ID_PATTERN.test(id) ? id : undefined;
}

/** Reads a whole document, or one section when given `<document>#<section>`. */
export const getDocument = tool({
  name: 'get_document',
  description:
    'Read a whole document by the source search_documents cites (e.g. "fixtures/docs/expenses-and-travel.md") or by id ' +
    '("expenses-and-travel"); add "#<section>" for one section (e.g. "expenses-and-travel#meals-and-per-diem"). ' +
    'Returns {id, source, title, sections, content}.',
  parameters: z.object({ id: z.string().min(1).max(200).describe('A cited source or a document id, optionally with #section') }),
  execute: ({ id }) => {
    const [docPart = '', sectionPart] = id.trim().split('#', 2);
    const docs = loadMarkdownDocs(DEFAULT_DOCS_DIR);
    const docId = documentId(docPart);
    const doc = docId === undefined ? undefined : docs.find((d) => d.id === docId);
    if (!doc) throw new Error(`no document "${docPart}"; known: ${docs.map((d) => `${DOCS_SOURCE_PREFIX}${d.file}`).join(', ')}`);
    const source = `${DOCS_SOURCE_PREFIX}${doc.file}`;
    const chunks = chunkByHeadings(doc);
    if (sectionPart !== undefined) {
      const chunk = chunks.find((c) => c.id === `${doc.id}#${sectionPart.toLowerCase()}`);
      if (!chunk) throw new Error(`no section "${sectionPart}" in ${doc.id}; sections: ${chunks.map((c) => c.id).join(', ')}`);
      return { id: chunk.id, source, title: doc.title, section: chunk.heading, content: chunk.text };
    }
    const content = doc.body.length > MAX_DOCUMENT_CHARS ? `${doc.body.slice(0, MAX_DOCUMENT_CHARS)}\n[... document truncated ...]` : doc.body;
    return { id: doc.id, source, title: doc.title, sections: chunks.map((c) => c.id), content };
  },
});
