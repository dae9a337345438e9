import type { Document } from '../document.js';
import { chunkOf, type Chunker } from './chunker.js';
import { mergeSpans, resolveSizes, splitSpans, trimSpan, type SplitSizes } from './span-splitter.js';

/** Options of {@link RecursiveTextSplitter}. */
export interface RecursiveTextSplitterOptions extends SplitSizes {
  /** Separators tried in order. Default paragraph, line, sentence end, space, then a hard cut: `['\n\n', '\n', '. ', ' ', '']`. */
  separators?: readonly string[];
}

/** Splits `documents` at spans of their text computed by `spansOf`. */
export function splitBySpans(documents: readonly Document[], spansOf: (text: string) => [number, number][]): Document[] {
  const out: Document[] = [];
  for (const document of documents) {
    let index = 0;
    for (const span of spansOf(document.text)) {
      const trimmed = trimSpan(document.text, span);
      if (!trimmed) continue;
      out.push(chunkOf(document, document.text.slice(trimmed[0], trimmed[1]), index++, trimmed[0], trimmed[1]));
    }
  }
  return out;
}

/**
 * Splits text at the largest natural boundary that makes chunks fit: paragraphs, then lines, then
 * sentences, then words, then a hard cut every `chunkSize` characters (1,000 by default, with 200
 * characters of overlap). Terminates on any input (one huge word, only separators, 10 MB without a
 * newline) in time linear in its length. Chunk metadata: `chunk`, `start`, `end` (offsets of the
 * chunk in the document's text).
 */
export class RecursiveTextSplitter implements Chunker {
  readonly #size: number;
  readonly #overlap: number;
  readonly #separators: readonly string[];

  constructor(options: RecursiveTextSplitterOptions = {}) {
    ({ size: this.#size, overlap: this.#overlap } = resolveSizes(options, 'RecursiveTextSplitter'));
    this.#separators = options.separators ?? ['\n\n', '\n', '. ', ' ', ''];
  }

  /** The chunk spans `[start, end)` of a text (untrimmed). */
  spans(text: string): [number, number][] {
    return mergeSpans(splitSpans(text, 0, text.length, this.#separators, this.#size, this.#overlap), this.#size, this.#overlap);
  }

  split(documents: readonly Document[]): Document[] {
    return splitBySpans(documents, (text) => this.spans(text));
  }
}
