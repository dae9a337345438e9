/**
 * Keyword search over items with weighted fields (a title can count more than the body), for small
 * knowledge bases such as the templates': lowercase `[a-z0-9]+` tokens, English and chat stop words,
 * a light suffix stemmer, and the BM25 formula of `bm25-score.ts` (k1 = 1.5, b = 0.75). For
 * documents with metadata, incremental updates and filters, use {@link BM25}.
 */
import { bm25Idf, bm25TermScore, DEFAULT_BM25 } from './bm25-score.js';

const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves get got im ive id dont cant wont its thats please hi hello thanks'
  ).split(' '),
);

/** A light English stemmer: folds plurals and common verb/noun endings onto one stem. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /^\d+$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suffix of ['ational', 'ation', 'ement', 'ment', 'ing', 'ed', 'er', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  if (/([^aeiouls])\1$/.test(w) || (w.endsWith('ll') && w.length > 5)) w = w.slice(0, -1);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** The search terms of a text: lowercase alphanumeric runs, stop words dropped, stemmed. */
export function keywordTerms(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().replace(/['’]/g, '').matchAll(/[a-z0-9]+/g)) {
    const word = match[0];
    if (STOP_WORDS.has(word) || word.length < 2) continue;
    out.push(stem(word));
  }
  return out;
}

/** One searchable field of a document and its weight (e.g. title 3, body 1). */
export interface WeightedField {
  text: string;
  weight: number;
}

/** A search hit: the item and its BM25 score. */
export interface ScoredItem<T> {
  item: T;
  score: number;
}

interface Entry<T> {
  item: T;
  tf: Map<string, number>;
  length: number;
}

/** An in-memory BM25 index over items with weighted fields. */
export class KeywordIndex<T> {
  readonly #entries: Entry<T>[] = [];
  readonly #df = new Map<string, number>();
  #totalLength = 0;

  /** Builds the index; `fields(item)` gives the weighted text of each item. */
  constructor(items: readonly T[], fields: (item: T) => readonly WeightedField[]) {
    for (const item of items) {
      const tf = new Map<string, number>();
      let length = 0;
      for (const field of fields(item)) {
        for (const term of keywordTerms(field.text)) {
          tf.set(term, (tf.get(term) ?? 0) + field.weight);
          length += 1;
        }
      }
      for (const term of tf.keys()) this.#df.set(term, (this.#df.get(term) ?? 0) + 1);
      this.#entries.push({ item, tf, length });
      this.#totalLength += length;
    }
  }

  /** The best `limit` items for `query`, highest score first; items that match no term are left out. */
  search(query: string, limit: number): ScoredItem<T>[] {
    const terms = [...new Set(keywordTerms(query))];
    if (terms.length === 0 || this.#entries.length === 0) return [];
    const n = this.#entries.length;
    const avgLength = this.#totalLength / n || 1;
    const scored: ScoredItem<T>[] = [];
    for (const entry of this.#entries) {
      let score = 0;
      for (const term of terms) {
        const tf = entry.tf.get(term);
        if (tf === undefined) continue;
        const df = this.#df.get(term) ?? 0;
        score += bm25TermScore(bm25Idf(n, df), tf, entry.length, avgLength, DEFAULT_BM25);
      }
      if (score > 0) scored.push({ item: entry.item, score: Math.round(score * 1000) / 1000 });
    }
    return scored.sort((x, y) => y.score - x.score).slice(0, Math.max(0, limit));
  }
}

/**
 * The passage of `text` (at most `maxChars`) that holds the most distinct query terms: the best
 * paragraph/sentence, widened with its neighbours while it fits.
 */
export function bestSnippet(text: string, query: string, maxChars = 300): string {
  const terms = new Set(keywordTerms(query));
  const pieces = text
    .split(/\n\s*\n|(?<=[.!?])\s+(?=[A-Z0-9*`"(-])/)
    .map((piece) => piece.replace(/\s+/g, ' ').trim())
    .filter((piece) => piece !== '' && !/^#+\s/.test(piece));
  if (pieces.length === 0) return '';
  let best = 0;
  let bestScore = -1;
  pieces.forEach((piece, index) => {
    const hits = new Set(keywordTerms(piece).filter((term) => terms.has(term))).size;
    if (hits > bestScore) {
      best = index;
      bestScore = hits;
    }
  });
  let snippet = pieces[best] ?? '';
  let next = best + 1;
  while (next < pieces.length && snippet.length + (pieces[next] ?? '').length + 1 <= maxChars) {
    snippet += ` ${pieces[next] ?? ''}`;
    next += 1;
  }
  return snippet.length > maxChars ? `${snippet.slice(0, maxChars - 1).trimEnd()}…` : snippet;
}
