import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { AgentUsage } from '../core/usage.js';
import { documentSource, type Document } from './document.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { DEFAULT_INCLUDE, listDirectory } from './loaders/directory-loader.js';
import { loadFile, LOADERS } from './loaders/load-file.js';
import { loadUrl } from './loaders/url-loader.js';

/** Progress of {@link indexSources}, after each file. */
export interface IndexSourcesProgress {
  /** Files (and URLs) done, of `totalFiles`. */
  files: number;
  totalFiles: number;
  /** Files left as they were (same content hash as indexed). */
  skipped: number;
  /** Chunks written so far. */
  chunks: number;
  /** Chunks embedded so far (including the file in progress). */
  embedded: number;
  /** The file being indexed. */
  current?: string;
}

/** Options of {@link indexSources}. */
export interface IndexSourcesOptions {
  /** What relative paths and globs resolve against, and what `source` is relative to. Default the working directory. */
  cwd?: string;
  /** Index even files whose content hash is already indexed. */
  force?: boolean;
  /** Let URLs reach private addresses (loopback, LAN). Default false. */
  allowPrivateUrls?: boolean;
  signal?: AbortSignal;
  /** Receives the embedding tokens and cost. */
  usage?: AgentUsage;
  onProgress?: (progress: IndexSourcesProgress) => void;
}

/** What {@link indexSources} did. */
export interface IndexSourcesReport {
  /** Sources (re)indexed, with their chunk counts. */
  indexed: { source: string; chunks: number }[];
  /** Sources whose content had not changed. */
  skipped: string[];
  /** Chunks written. */
  chunks: number;
  /** Old chunks removed (of sources that changed). */
  removed: number;
}

const GLOB_CHARS = /[*?[{]/;

/** The files an input names: a file, a folder (its loadable files), or a glob relative to `cwd`. */
async function expand(input: string, cwd: string): Promise<string[]> {
  if (GLOB_CHARS.test(input)) {
    const parts = input.split(/[\\/]/);
    const firstGlob = parts.findIndex((part) => GLOB_CHARS.test(part));
    const base = resolve(cwd, parts.slice(0, firstGlob).join('/') || '.');
    const pattern = parts.slice(firstGlob).join('/');
    const files = await listDirectory(base, { include: [pattern.includes('/') ? pattern : `**/${pattern}`] });
    return files.map((file) => join(base, file));
  }
  const path = isAbsolute(input) ? input : resolve(cwd, input);
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new ConfigurationError(`nothing to index at ${input}: no such file or folder`, { key: 'path' });
  }
  if (info.isDirectory()) return (await listDirectory(path, { include: [...DEFAULT_INCLUDE, '**/*.{csv,tsv,json,jsonl,ndjson}'] })).map((file) => join(path, file));
  return [path];
}

/** A path as a source: relative to `cwd` with `/` when inside it, else absolute. */
function sourceOf(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel.split(sep).join('/');
}

/** The sources a store holds, with the content hash and the chunk ids of each. */
async function indexedSources(kb: KnowledgeBase): Promise<Map<string, { sha256: unknown; ids: string[] }>> {
  const bySource = new Map<string, { sha256: unknown; ids: string[] }>();
  for (const document of await kb.store.list()) {
    const source = documentSource(document);
    if (source === undefined || document.id === undefined) continue;
    const embedder = document.metadata['embedder'];
    if (typeof embedder === 'string' && embedder !== kb.embedder.name) {
      throw new ConfigurationError(`this index was embedded with ${embedder}, not ${kb.embedder.name}: use the same embedder (or another table / store) so its vectors stay comparable`, { key: 'embedder' });
    }
    const entry = bySource.get(source) ?? { sha256: document.metadata['sha256'], ids: [] };
    entry.ids.push(document.id);
    bySource.set(source, entry);
  }
  return bySource;
}

/**
 * Indexes files, folders, globs and URLs into a knowledge base, skipping what has not changed:
 * every chunk carries the SHA-256 of its file's content (`sha256`) and the embedder's name
 * (`embedder`); a file whose hash is already indexed is skipped, a changed file has its old chunks
 * removed before the new ones are written. Sources are paths relative to `cwd` (or the final URL).
 */
export async function indexSources(kb: KnowledgeBase, inputs: readonly string[], options: IndexSourcesOptions = {}): Promise<IndexSourcesReport> {
  const cwd = options.cwd ?? process.cwd();
  const targets: string[] = [];
  for (const input of inputs) {
    if (/^https?:\/\//i.test(input)) targets.push(input);
    else for (const file of await expand(input, cwd)) if (!targets.includes(file)) targets.push(file);
  }
  for (const target of targets) {
    const extension = /\.[^./\\]+$/.exec(target)?.[0]?.toLowerCase() ?? '';
    if (!/^https?:/i.test(target) && !(extension in LOADERS)) throw new ConfigurationError(`no loader for ${target} (known: ${Object.keys(LOADERS).join(' ')})`, { key: 'path' });
  }
  const existing = await indexedSources(kb);
  const report: IndexSourcesReport = { indexed: [], skipped: [], chunks: 0, removed: 0 };
  const progress = (files: number, embedded: number, current?: string): void =>
    options.onProgress?.({ files, totalFiles: targets.length, skipped: report.skipped.length, chunks: report.chunks, embedded, ...(current === undefined ? {} : { current }) });
  progress(0, 0);
  for (const [n, target] of targets.entries()) {
    options.signal?.throwIfAborted();
    const isUrl = /^https?:/i.test(target);
    let documents: Document[];
    let sha256: string;
    let source: string;
    if (isUrl) {
      documents = await loadUrl(target, { ...(options.allowPrivateUrls === true ? { allowPrivate: true } : {}), ...(options.signal ? { signal: options.signal } : {}) });
      source = documentSource(documents[0] ?? { text: '', metadata: {} }) ?? target;
      sha256 = createHash('sha256').update(documents.map((d) => d.text).join('\0')).digest('hex');
    } else {
      source = sourceOf(target, cwd);
      sha256 = createHash('sha256').update(await readFile(target)).digest('hex');
      documents = [];
    }
    const previous = existing.get(source);
    if (options.force !== true && previous !== undefined && previous.sha256 === sha256) {
      report.skipped.push(source);
      progress(n + 1, report.chunks, source);
      continue;
    }
    if (!isUrl) documents = await loadFile(target, { source });
    const tagged = documents.map((document) => ({ ...document, metadata: { ...document.metadata, source, sha256, embedder: kb.embedder.name } }));
    if (previous !== undefined) {
      await kb.delete(previous.ids);
      report.removed += previous.ids.length;
    }
    const done = report.chunks;
    const ids = await kb.addDocuments(tagged, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.usage ? { usage: options.usage } : {}),
      onProgress: (p) => progress(n, done + p.embedded, source),
    });
    report.chunks += ids.length;
    report.indexed.push({ source, chunks: ids.length });
    progress(n + 1, report.chunks, source);
  }
  return report;
}
