import type { Document } from '../document.js';
import type { Chunker } from './chunker.js';
import { splitBySpans } from './recursive-text-splitter.js';
import { mergeSpans, resolveSizes, splitSpans, type SplitSizes } from './span-splitter.js';

/** Options of {@link TextSplitter}. */
export interface TextSplitterOptions extends SplitSizes {
  /** Where text may be cut. Default `'\n\n'` (paragraphs). Pieces longer than `chunkSize` are cut every `chunkSize` characters. */
  separator?: string;
}

/**
 * Splits text at one separator into chunks of at most `chunkSize` characters (1,000 by default)
 * with `chunkOverlap` characters (200) of overlap; a piece between separators that is still too
 * long is cut every `chunkSize` characters.
 */
export class TextSplitter implements Chunker {
  readonly #size: number;
  readonly #overlap: number;
  readonly #separator: string;

  constructor(options: TextSplitterOptions = {}) {
    ({ size: this.#size, overlap: this.#overlap } = resolveSizes(options, 'TextSplitter'));
    this.#separator = options.separator ?? '\n\n';
  }

  split(documents: readonly Document[]): Document[] {
    const separators = this.#separator === '' ? [''] : [this.#separator, ''];
    return splitBySpans(documents, (text) => mergeSpans(splitSpans(text, 0, text.length, separators, this.#size, this.#overlap), this.#size, this.#overlap));
  }
}
