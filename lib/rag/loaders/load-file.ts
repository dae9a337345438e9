import { extname } from 'node:path';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Document } from '../document.js';
import { loadCsv, type CsvLoadOptions } from './csv-loader.js';
import { loadJson, loadJsonl, type JsonLoadOptions } from './json-loader.js';
import { loadPdf } from './pdf-loader.js';
import { loadHtml, loadMarkdown, loadText, type FileLoadOptions } from './text-loaders.js';

/** Options of {@link loadFile}: those of every loader (each uses its own). */
export interface LoadFileOptions extends FileLoadOptions, Pick<CsvLoadOptions, 'textColumn' | 'delimiter'>, Omit<JsonLoadOptions, keyof FileLoadOptions> {}

/** The loader of each file extension. */
export const LOADERS: Readonly<Record<string, (path: string, options: LoadFileOptions) => Promise<Document[]>>> = {
  '.txt': loadText,
  '.text': loadText,
  '.log': loadText,
  '.rst': loadText,
  '.md': loadMarkdown,
  '.markdown': loadMarkdown,
  '.mdx': loadMarkdown,
  '.html': loadHtml,
  '.htm': loadHtml,
  '.pdf': loadPdf,
  '.csv': loadCsv,
  '.tsv': (path, options) => loadCsv(path, { delimiter: '\t', ...options }),
  '.json': loadJson,
  '.jsonl': loadJsonl,
  '.ndjson': loadJsonl,
};

/** Loads a file with the loader of its extension (see LOADERS); an unknown extension is a ConfigurationError. */
export function loadFile(path: string, options: LoadFileOptions = {}): Promise<Document[]> {
  const extension = extname(path).toLowerCase();
  const loader = LOADERS[extension];
  if (!loader) throw new ConfigurationError(`no loader for ${extension || 'files without an extension'} (${path}); known: ${Object.keys(LOADERS).join(' ')}`, { key: 'path' });
  return loader(path, options);
}
