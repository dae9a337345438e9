/** A metadata value a filter can compare: strings, numbers, booleans and null. */
export type MetadataScalar = string | number | boolean | null;

/**
 * Metadata of a document: where it came from (`source`, `page`, `start`/`end` character offsets,
 * `chunk`), plus anything the caller adds. Values are JSON.
 */
export type Metadata = Record<string, unknown>;

/** A piece of text and its metadata; `id` is given by the store that holds it (or by the caller). */
export interface Document {
  /** The store's id for this document, when it has one. */
  id?: string;
  text: string;
  metadata: Metadata;
}

/** A retrieved document and its score (higher is better; the scale depends on the searcher). */
export interface SearchResult {
  document: Document;
  score: number;
}

/** A document with `metadata` defaulted to `{}`. */
export function makeDocument(text: string, metadata: Metadata = {}, id?: string): Document {
  return id === undefined ? { text, metadata } : { id, text, metadata };
}

/** The `source` metadata of a document, or undefined. */
export function documentSource(document: Document): string | undefined {
  const source = document.metadata['source'];
  return typeof source === 'string' ? source : undefined;
}
