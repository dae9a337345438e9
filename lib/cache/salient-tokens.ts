import { numberWordValue } from './number-words.js';

/**
 * Dates relative to now: "today", "tomorrow", "yesterday", "tonight", and "this / last / next /
 * previous / coming / past / current" + a period ("last year", "next Monday"). "Who won last year"
 * and "who won this year" have different answers, like 2024 and 2025.
 */
const PERIOD =
  'day|night|week|weekend|fortnight|month|quarter|year|decade|century|season|semester|term|morning|afternoon|evening|' +
  'monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|' +
  'spring|summer|autumn|fall|winter';
const RELATIVE_DATE = new RegExp(`\\b(today|tonight|tomorrow|yesterday)\\b|\\b((?:this|last|next|previous|coming|past|current)\\s+(?:${PERIOD})s?)\\b`, 'gu');

/**
 * The parts of a question that change its answer however similar the rest is: numbers (`3`,
 * `2.5`, `1,000`, `2024`, `twelve`), dates relative to now (`today`, `last year`) and names
 * (capitalised words that do not start a sentence, acronyms, quoted strings). Two questions whose
 * salient tokens differ are never the same question: "the population of Lyon in 2020" and "the population of Lyon in 2021" embed close together,
 * yet one cached answer is wrong for the other.
 */
export function salientTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.matchAll(/\d+(?:[.,:/-]\d+)*/g)) tokens.add(match[0].replace(/,/g, ''));
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const value = numberWordValue(word);
    if (value !== undefined) tokens.add(value);
  }
  for (const match of text.toLowerCase().matchAll(RELATIVE_DATE)) tokens.add(`@${(match[1] ?? match[2] ?? '').replace(/\s+/g, ' ').replace(/s$/, '')}`);
  for (const match of text.matchAll(/["'“‘`]([^"'”’`]{1,80})["'”’`]/g)) tokens.add(`"${(match[1] ?? '').toLowerCase()}"`);
  // Words after the first of each sentence: a capital there marks a name.
  for (const sentence of text.split(/[.!?]\s+|\n+/)) {
    const words = sentence.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
    for (const word of words.slice(1)) {
      if (/^\p{Lu}/u.test(word) && word !== 'I' && !/^I['’]/.test(word)) tokens.add(word.toLowerCase());
    }
    const first = words[0];
    if (first !== undefined && first.length > 1 && first === first.toUpperCase() && /\p{Lu}/u.test(first)) tokens.add(first.toLowerCase());
  }
  return [...tokens].sort();
}

/** True when both texts carry the same salient tokens. */
export function sameSalientTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((token, i) => token === b[i]);
}
