// Rebuilds the index the rag_chatbot template ships (templates/rag_chatbot/index.db) from its sample
// documents (templates/rag_chatbot/fixtures/docs), with the built CLI, exactly as a user would:
//   cd templates/rag_chatbot && agentlib rag index fixtures/docs --store sqlite://index.db
// (default chunker and the offline `hashing` embedder; sources are relative to the template folder,
// e.g. fixtures/docs/time-off-policy.md). The old index is removed first, so nothing stale remains.
// test/templates/rag_chatbot/index.test.ts fails when the shipped index no longer matches the docs.
// After rebuilding, re-record the template's cassette (the tool results in it come from the index):
//   npm run build && node --import tsx scripts/build-template-index.ts && node --import tsx scripts/record-template-cassettes.ts rag_chatbot
import { execa } from 'execa';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The template folder the index is built in (sources are relative to it). */
export const RAG_TEMPLATE_DIR = join(root, 'templates', 'rag_chatbot');
/** The indexed folder, relative to the template. */
export const RAG_TEMPLATE_DOCS = 'fixtures/docs';
/** The shipped index file, relative to the template (agent.yaml's `retrieval.store: sqlite://index.db`). */
export const RAG_TEMPLATE_INDEX = 'index.db';

/** Builds a fresh index of the template's documents into `dbPath` (absolute), replacing any file there. */
export async function buildTemplateIndex(dbPath: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
  await execa(process.execPath, [join(root, 'bin', 'agentlib.js'), 'rag', 'index', RAG_TEMPLATE_DOCS, '--store', `sqlite://${dbPath}`], {
    cwd: RAG_TEMPLATE_DIR,
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: 'true', NO_COLOR: '1' },
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const path = join(RAG_TEMPLATE_DIR, RAG_TEMPLATE_INDEX);
  await buildTemplateIndex(path);
  process.stdout.write(`rebuilt ${path}\n`);
}
