import { UsageError } from '../../cli/usage-error.js';
import { writeData, writeJson } from '../../cli/output.js';
import { documentSource } from '../../lib/rag/document.js';
import { listIndexes } from '../../lib/rag/stores/list-indexes.js';
import { StorageUrlError } from '../../lib/storage/errors/index.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { DEFAULT_RAG_STORE, openIndex } from './open-index.js';

interface SourceRow {
  source: string;
  chunks: number;
  characters: number;
  embedder: string | undefined;
  sha256: string | undefined;
}

/** Bytes for people: `812 B`, `68.0 KiB`, `3.4 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit] ?? 'TiB'}`;
}

/**
 * `agentlib rag ls`: every index (table) of the store with its size (chunks, sources, characters,
 * bytes where the backend tells, embedder); with `--table`, the sources of that one index.
 */
export async function runLs(args: CommandArguments, context: CommandContext): Promise<number> {
  return typeof args.table === 'string' ? runLsSources(args, context) : runLsIndexes(args, context);
}

/** `agentlib rag ls --store URL`: the indexes of the store, with sizes. */
async function runLsIndexes(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const url = typeof args.store === 'string' && args.store !== '' ? args.store : DEFAULT_RAG_STORE;
  process.env['LANCEDB_LOG'] ??= 'error';
  let listing;
  try {
    listing = await listIndexes(url, { cwd: io.cwd ?? process.cwd() });
  } catch (error) {
    if (StorageUrlError.isInstance(error)) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
  const { backend, indexes } = listing;
  if (args.json === true) {
    writeJson(io, { store: url, backend, indexes });
    return 0;
  }
  if (indexes.length === 0) {
    writeData(io, `No index in ${url}. Build one with: agentlib rag index <files|folders|globs|urls> --store ${url}`);
    return 0;
  }
  const width = Math.max(5, ...indexes.map((index) => index.table.length));
  const lines = [`${'table'.padEnd(width)}  chunks  sources  characters       bytes  embedder`];
  for (const index of indexes) {
    const bytes = index.bytes === undefined ? '-' : formatBytes(index.bytes);
    lines.push(
      `${index.table.padEnd(width)}  ${String(index.chunks).padStart(6)}  ${String(index.sources).padStart(7)}  ${String(index.characters).padStart(10)}  ${bytes.padStart(10)}  ${index.embedder ?? '-'}`,
    );
  }
  lines.push(`${indexes.length} index(es) in ${url} (${backend}). The sources of one: agentlib rag ls --store ${url} --table <table>`);
  writeData(io, lines.join('\n'));
  return 0;
}

/** `agentlib rag ls --table T`: the sources one index holds, with chunk counts and sizes (characters). */
async function runLsSources(args: CommandArguments, context: CommandContext): Promise<number> {
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
