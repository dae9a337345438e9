import { readFile } from 'node:fs/promises';
import { parseYaml } from '../../config/parse-yaml.js';
import type { Document, Metadata } from '../document.js';
import { htmlTitle, htmlToText } from '../web/html-to-text.js';

/** Options shared by the file loaders. */
export interface FileLoadOptions {
  /** The `source` written into metadata. Default: the path as given. */
  source?: string;
  /** Extra metadata for every document. */
  metadata?: Metadata;
}

function base(path: string, options: FileLoadOptions, type: string): Metadata {
  return { ...options.metadata, source: options.source ?? path, type };
}

/** A plain-text file as one document. */
export async function loadText(path: string, options: FileLoadOptions = {}): Promise<Document[]> {
  return [{ text: await readFile(path, 'utf8'), metadata: base(path, options, 'text') }];
}

/**
 * Front matter and body of a Markdown text: a leading `---` YAML block becomes metadata (scalar
 * values and lists of scalars), the rest is the body.
 */
export function splitFrontMatter(source: string): { meta: Metadata; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!match) return { meta: {}, body: source };
  const meta: Metadata = {};
  const parsed: unknown = parseYaml(match[1] ?? '');
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (['string', 'number', 'boolean'].includes(typeof value)) meta[key] = value;
      else if (Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item))) meta[key] = value;
    }
  }
  return { meta, body: source.slice(match[0].length) };
}

/**
 * A Markdown file as one document: front matter into metadata, `title` from the front matter or
 * the first `# ` heading; the text is the Markdown body.
 */
export async function loadMarkdown(path: string, options: FileLoadOptions = {}): Promise<Document[]> {
  const { meta, body } = splitFrontMatter(await readFile(path, 'utf8'));
  const heading = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  const title = typeof meta['title'] === 'string' ? meta['title'] : heading;
  const metadata: Metadata = { ...meta, ...base(path, options, 'markdown') };
  if (title !== undefined) metadata['title'] = title;
  return [{ text: body, metadata }];
}

/** An HTML text as a document: readable text (scripts, styles and markup dropped), `title` from `<title>`. */
export function htmlDocument(html: string, metadata: Metadata): Document {
  const title = htmlTitle(html);
  return { text: htmlToText(html), metadata: title === undefined ? metadata : { ...metadata, title } };
}

/** An HTML file as one document. */
export async function loadHtml(path: string, options: FileLoadOptions = {}): Promise<Document[]> {
  return [htmlDocument(await readFile(path, 'utf8'), base(path, options, 'html'))];
}

export { base as fileMetadata };
