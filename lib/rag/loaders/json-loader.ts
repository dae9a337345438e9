import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Document, Metadata } from '../document.js';
import { fileMetadata, type FileLoadOptions } from './text-loaders.js';

/** Options of {@link loadJson} and {@link loadJsonl}. */
export interface JsonLoadOptions extends FileLoadOptions {
  /** Dotted path to the text in each record (`body`, `content.text`). Default `text`. */
  textPath?: string;
  /** Dotted path to the array of records in a JSON file (`data.items`). Default: the root (an array, or one record). */
  recordsPath?: string;
  /** Dotted paths copied from each record into metadata, under their last segment. */
  metadataPaths?: readonly string[];
}

/** The value at a dotted path (`a.b.0.c`), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function toDocuments(records: readonly unknown[], path: string, options: JsonLoadOptions, type: string, where: (index: number) => string): Document[] {
  const textPath = options.textPath ?? 'text';
  return records.map((record, index) => {
    const text = valueAt(record, textPath);
    if (typeof text !== 'string') {
      throw new ConfigurationError(`${path}: ${where(index)} has no string at ${JSON.stringify(textPath)} (set textPath)`, { key: 'textPath' });
    }
    const metadata: Metadata = { ...fileMetadata(path, options, type), record: index };
    for (const metaPath of options.metadataPaths ?? []) {
      const value = valueAt(record, metaPath);
      if (value !== undefined) metadata[metaPath.split('.').at(-1) as string] = value;
    }
    return { text, metadata };
  });
}

/** A JSON file: each record of the root array (or of `recordsPath`) is a document whose text is at `textPath`. */
export async function loadJson(path: string, options: JsonLoadOptions = {}): Promise<Document[]> {
  const root: unknown = JSON.parse(await readFile(path, 'utf8'));
  const records = options.recordsPath === undefined ? root : valueAt(root, options.recordsPath);
  if (options.recordsPath !== undefined && !Array.isArray(records)) {
    throw new ConfigurationError(`${path}: ${JSON.stringify(options.recordsPath)} is not an array`, { key: 'recordsPath' });
  }
  const list = Array.isArray(records) ? records : [records];
  return toDocuments(list, path, options, 'json', (i) => `record ${i}`);
}

/** A JSON Lines file: each non-blank line is a record whose text is at `textPath`. */
export async function loadJsonl(path: string, options: JsonLoadOptions = {}): Promise<Document[]> {
  const lines = (await readFile(path, 'utf8')).split(/\r?\n/);
  const records: unknown[] = [];
  const lineOf: number[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      records.push(JSON.parse(line));
    } catch (error) {
      throw new ConfigurationError(`${path}:${index + 1}: not valid JSON (${(error as Error).message})`, { cause: error });
    }
    lineOf.push(index + 1);
  });
  return toDocuments(records, path, options, 'jsonl', (i) => `line ${lineOf[i] ?? '?'}`).map((doc, i) => ({ ...doc, metadata: { ...doc.metadata, line: lineOf[i] } }));
}
