/**
 * Numbers written as words count as the numbers: "for two people" ≠ "for four people", and "2
 * people" = "two people". "one" is left out (mostly a pronoun: "the old one").
 */
const NUMBER_WORDS = new Map<string, number>(
  [
    ['zero', 0], ['two', 2], ['three', 3], ['four', 4], ['five', 5], ['six', 6], ['seven', 7], ['eight', 8], ['nine', 9], ['ten', 10],
    ['eleven', 11], ['twelve', 12], ['thirteen', 13], ['fourteen', 14], ['fifteen', 15], ['sixteen', 16], ['seventeen', 17],
    ['eighteen', 18], ['nineteen', 19], ['twenty', 20], ['thirty', 30], ['forty', 40], ['fifty', 50], ['sixty', 60], ['seventy', 70],
    ['eighty', 80], ['ninety', 90], ['hundred', 100], ['thousand', 1000], ['million', 1_000_000], ['billion', 1_000_000_000], ['dozen', 12],
  ],
);

/** The digits of a number word ("twelve" → "12"), or undefined for any other word. */
export function numberWordValue(word: string): string | undefined {
  const value = NUMBER_WORDS.get(word);
  return value === undefined ? undefined : String(value);
}
