/**
 * English stop words dropped from BM25 terms (the common function words: articles, pronouns,
 * auxiliaries, prepositions, conjunctions), written as `[a-z0-9]+` tokens (`don't` → `don`, `t`).
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being below between both ' +
    'but by can couldn d did didn do does doesn doing don down during each few for from further had hadn has hasn have ' +
    'haven having he her here hers herself him himself his how i if in into is isn it its itself just ll m me more most ' +
    'mustn my myself needn no nor not now o of off on once only or other our ours ourselves out over own re s same shan ' +
    'she should shouldn so some such t than that the their theirs them themselves then there these they this those ' +
    'through to too under until up ve very was wasn we were weren what when where which while who whom why will with ' +
    'won would wouldn y you your yours yourself yourselves'
  ).split(' '),
);

/** Options of {@link bm25Tokens}. */
export interface TokenizeOptions {
  /** Words dropped; `false` keeps every token. Default {@link ENGLISH_STOP_WORDS}. */
  stopWords?: ReadonlySet<string> | false;
}

/** BM25 terms of a text: lowercase `[a-z0-9]+` runs, stop words dropped. No stemming. */
export function bm25Tokens(text: string, options: TokenizeOptions = {}): string[] {
  const stop = options.stopWords === undefined ? ENGLISH_STOP_WORDS : options.stopWords;
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    const word = match[0];
    if (stop !== false && stop.has(word)) continue;
    out.push(word);
  }
  return out;
}
