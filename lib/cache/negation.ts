import { questionWords } from './word-swaps.js';

/** Words that negate what follows them. */
const NEGATORS = new Set(['not', 'no', 'never', 'none', 'nobody', 'nothing', 'nowhere', 'neither', 'nor', 'without']);

/**
 * How many negations `text` has: "not", "no", "never", "without", "cannot"… and the contractions
 * ending in "n't" ("can't", "doesn't", "won't"). Two questions with a different count ask opposite
 * things ("which plans include support" / "which plans do not include support") although their
 * embeddings are close (0.95–0.99 with a sentence encoder) and no word is swapped — a negation is
 * one added word, which the word-swap check leaves to the threshold.
 */
export function negationCount(text: string): number {
  let count = 0;
  for (const word of questionWords(text)) {
    if (NEGATORS.has(word)) count += 1;
  }
  return count;
}
