import { writeData, writeJson } from '../../cli/output.js';
import { documentSource } from '../../lib/rag/document.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { openIndex } from './open-index.js';

interface SourceRow {
  source: string;
  chunks: number;
  characters: number;
  embedder: string | undefined;
  sha256: string | undefined;
}

/** `agentlib rag ls`: the sources an index holds, with chunk counts and sizes (characters). */
export async function runLs(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const { kb, url } = await openIndex({ ...args, embedder: 'hashing' }, io.cwd ?? process.cwd());
  try {
    const rows = new Map<string, SourceRow>();
    for (const document of await kb.store.list()) {
      const source = documentSource(document) ?? '(no source)';
      const row = rows.get(source) ?? { source, chunks: 0, characters: 0, embedder: undefined, sha256: undefined };
      row.chunks += 1;
      row.characters += document.text.length;
      const embedder = document.metadata['embedder'];
      const sha = document.metadata['sha256'];
      if (typeof embedder === 'string') row.embedder = embedder;
      if (typeof sha === 'string') row.sha256 = sha;
      rows.set(source, row);
    }
    const sources = [...rows.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
    const chunks = sources.reduce((n, row) => n + row.chunks, 0);
    const characters = sources.reduce((n, row) => n + row.characters, 0);
    if (args.json === true) {
      writeJson(io, { store: url, table: typeof args.table === 'string' ? args.table : 'agentlib_rag_vectors', backend: kb.store.backend, sources, chunks, characters });
      return 0;
    }
    if (sources.length === 0) {
      writeData(io, `Nothing indexed in ${url}. Add documents with: agentlib rag index <files|folders|globs|urls> --store ${url}`);
      return 0;
    }
    const width = Math.max(6, ...sources.map((row) => row.source.length));
    const lines = [`${'source'.padEnd(width)}  chunks  characters  embedder`];
    for (const row of sources) lines.push(`${row.source.padEnd(width)}  ${String(row.chunks).padStart(6)}  ${String(row.characters).padStart(10)}  ${row.embedder ?? '-'}`);
    lines.push(`${sources.length} source(s), ${chunks} chunks, ${characters} characters in ${url} (${kb.store.backend})`);
    writeData(io, lines.join('\n'));
    return 0;
  } finally {
    await kb.store.close();
  }
}
