import type { Document } from '../document.js';

/** Splits documents into chunks; each chunk keeps its document's metadata plus `chunk`, `start` and `end`. */
export interface Chunker {
  split(documents: readonly Document[]): Promise<Document[]> | Document[];
}

/**
 * A chunk of `document` covering `[start, end)` of its text: the document's metadata, plus `chunk`
 * (its index), and `start`/`end` offsets counted from the start of the document's own offsets
 * (a document that is itself a part of a file, such as a PDF page, keeps `start` relative to it).
 */
export function chunkOf(document: Document, text: string, index: number, start: number, end: number): Document {
  return { text, metadata: { ...document.metadata, chunk: index, start, end } };
}
