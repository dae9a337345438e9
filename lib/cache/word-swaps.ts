import { numberWordValue } from './number-words.js';

/**
 * Words that frame a question without changing what it asks: articles, pronouns, auxiliaries,
 * question words, most prepositions and request verbs ("give me", "I need", "please"). Directional
 * particles (on, off, in, out, up, down) and negations (not, no, can't) are NOT here: "turn on" and
 * "turn off" ask opposite things.
 */
const FRAME_WORDS = new Set(
  (
    'a an the this that these those there here it its i me my mine we us our you your yours he him his she her they them their ' +
    'is are was were be been being am do does did done doing have has had having can could would should shall will may might must ' +
    'what which who whom whose when where why how whats hows ' +
    'of to into for at by with from about as than then so and or but if ' +
    'please kindly give tell show need want like let know just really exactly briefly usually some any all much many very'
  ).split(' '),
);

/** True for a word that frames a question without changing what it asks (see FRAME_WORDS). */
export function isFrameWord(word: string): boolean {
  return FRAME_WORDS.has(word);
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Negated auxiliaries spelt out: "can't" / "cannot" → "can not", "won't" → "will not", "doesn't" → "does not". */
function expandNegations(text: string): string {
  return text
    .replace(/\b(?:can['’]t|cannot)\b/gu, 'can not')
    .replace(/\bwon['’]t\b/gu, 'will not')
    .replace(/\bshan['’]t\b/gu, 'shall not')
    .replace(/n['’]t\b/gu, ' not');
}

/**
 * The words of `text` in order, lower-cased, negations spelt out ("don't" → "do not"), possessive
 * and contraction endings dropped ("what's" → "what"), number words as digits.
 */
export function questionWords(text: string): string[] {
  return (expandNegations(text.toLowerCase()).match(WORD) ?? []).map(normalizeWord).filter((word) => word !== '');
}

/**
 * One matched word, lower-cased: possessive and contraction endings dropped, inner apostrophes
 * removed, a number word as its digits ("two" → "2", so "two people" and "2 people" agree).
 */
export function normalizeWord(raw: string): string {
  const word = raw.replace(/['’](?:s|re|ve|ll|d|m)$/u, '').replace(/['’]/gu, '');
  return numberWordValue(word) ?? word;
}

/** A light English stemmer: plural and common derivational endings, so "invoices"/"invoice" and "summarize"/"summary" agree. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(?:s|x|z|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  for (const suffix of ['ation', 'ition', 'ion', 'ing', 'ed', 'ize', 'ise', 'y', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

/** The stems of the words of `text` that carry its meaning (lower-cased, frame words dropped), sorted and unique. */
export function contentWords(text: string): string[] {
  const stems = new Set<string>();
  for (const word of questionWords(text)) {
    if (!FRAME_WORDS.has(word)) stems.add(stem(word));
  }
  return [...stems].sort();
}

/**
 * True when each question has a content word the other lacks: one word swapped for another
 * ("enable"/"disable", "gold"/"silver", "password"/"username"). Sentence embeddings score such
 * minimal pairs very close together (the rest of the sentence is identical) although they ask
 * different things, so the semantic cache refuses them. Adding or dropping words ("…, please",
 * "exactly", "in a vacuum") is no swap.
 */
export function swapsWords(a: readonly string[], b: readonly string[]): boolean {
  const inA = new Set(a);
  const inB = new Set(b);
  return a.some((word) => !inB.has(word)) && b.some((word) => !inA.has(word));
}
