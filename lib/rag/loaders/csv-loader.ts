import { readFile } from 'node:fs/promises';
import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { Document } from '../document.js';
import { fileMetadata, type FileLoadOptions } from './text-loaders.js';

/** Options of {@link loadCsv}. */
export interface CsvLoadOptions extends FileLoadOptions {
  /** The column that is the text; the other columns become metadata. Default: every column as `name: value` lines. */
  textColumn?: string;
  /** Field separator. Default `,`. */
  delimiter?: string;
}

/** Parses CSV (RFC 4180: quoted fields with `""` escapes and line breaks inside quotes). */
export function parseCsv(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === delimiter) {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || (r[0] ?? '') !== '');
}

/**
 * A CSV file with a header row, one document per row: the `textColumn` as text and the other
 * columns as metadata, or (without `textColumn`) every column as a `name: value` line. Metadata
 * also has `row` (1 = the first data row).
 */
export async function loadCsv(path: string, options: CsvLoadOptions = {}): Promise<Document[]> {
  const [header, ...rows] = parseCsv(await readFile(path, 'utf8'), options.delimiter ?? ',');
  if (!header) return [];
  const textIndex = options.textColumn === undefined ? -1 : header.indexOf(options.textColumn);
  if (options.textColumn !== undefined && textIndex === -1) {
    throw new ConfigurationError(`${path}: no column ${JSON.stringify(options.textColumn)} (columns: ${header.join(', ')})`, { key: 'textColumn' });
  }
  return rows.map((cells, index) => {
    const metadata = { ...fileMetadata(path, options, 'csv'), row: index + 1 };
    if (textIndex === -1) return { text: header.map((name, c) => `${name}: ${cells[c] ?? ''}`).join('\n'), metadata };
    header.forEach((name, c) => {
      if (c !== textIndex && !(name in metadata)) (metadata as Record<string, unknown>)[name] = cells[c] ?? '';
    });
    return { text: cells[textIndex] ?? '', metadata };
  });
}
