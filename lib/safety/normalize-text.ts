/**
 * Text normalisation for safety checks: NFKC, invisible characters removed (zero-width, bidi
 * controls, soft hyphen, variation selectors), common homoglyphs (Cyrillic, Greek) folded to Latin
 * inside words that mix them with Latin letters (or consist only of look-alikes). Keeps a map back
 * to the original text so a match in the normalised text can be replaced in the original
 * (screening replaces only the matched span).
 */

/** Characters removed before matching: zero-width, joiners, bidi controls, soft hyphen, BOM, variation selectors. */
const INVISIBLE = /^[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0]$/;

/** Look-alike letters of other scripts → the Latin letter they imitate. One UTF-16 unit each way. */
const HOMOGLYPHS: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ӏ: 'l', ԛ: 'q', ԝ: 'w', ɡ: 'g',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', І: 'I', Ј: 'J', Ѕ: 'S',
  // Greek
  α: 'a', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  // Latin look-alikes outside ASCII that NFKC keeps
  ı: 'i', ȷ: 'j', ɑ: 'a', ɩ: 'i', ʟ: 'L',
};

/** Text after normalisation, with the original offset of every normalised UTF-16 unit. */
export interface NormalizedText {
  /** The normalised text. */
  text: string;
  /** `offsets[i]` is the index in the original text of the character that produced `text[i]`; undefined when the text is unchanged. */
  offsets: Int32Array | undefined;
  /** The original text. */
  original: string;
}

 
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;
 
const NON_ASCII = /[^\x00-\x7f]/;
/** Any invisible character (see {@link INVISIBLE}), to skip the per-character work on runs without one. */
const ANY_INVISIBLE = new RegExp(INVISIBLE.source.slice(1, -1));
/** Any look-alike letter (a class scan: fast on text that has none). */
const HOMOGLYPH_CHAR = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'g');
/** The same class, not global: a test on one run. */
const HOMOGLYPH_IN = new RegExp(HOMOGLYPH_CHAR.source);
const LETTER = /^\p{L}$/u;
const LATIN = /\p{Script=Latin}/u;

/** Folds the word when it mixes look-alikes with Latin letters, or consists only of look-alikes. */
function foldWord(word: string): string {
  let latin = 0;
  let confusable = 0;
  for (const ch of word) {
    if (HOMOGLYPHS[ch] !== undefined) confusable++;
    else if (LATIN.test(ch)) latin++;
  }
  if (confusable === 0 || (latin === 0 && confusable !== word.length)) return word;
  let out = '';
  for (const ch of word) out += HOMOGLYPHS[ch] ?? ch;
  return out;
}

/** Folds the words around each look-alike letter (see {@link foldWord}); one UTF-16 unit for one. */
function foldHomoglyphs(text: string): string {
  HOMOGLYPH_CHAR.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let m = HOMOGLYPH_CHAR.exec(text); m !== null; m = HOMOGLYPH_CHAR.exec(text)) {
    let start = m.index;
    let end = m.index + 1;
    while (start > last && LETTER.test(text.charAt(start - 1))) start--;
    while (end < text.length && LETTER.test(text.charAt(end))) end++;
    out += text.slice(last, start) + foldWord(text.slice(start, end));
    last = end;
    HOMOGLYPH_CHAR.lastIndex = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * Whether normalising leaves `text` as it is: every non-ASCII run already NFKC, with no invisible
 * character and no look-alike letter (the usual case: accents, symbols, CJK). Then no offset map
 * is built (a map costs a pass over every character).
 */
function unchangedByNormalizing(text: string): boolean {
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(text); m !== null; m = NON_ASCII_RUN.exec(text)) {
    const run = m[0];
    if (ANY_INVISIBLE.test(run) || HOMOGLYPH_IN.test(run) || run.normalize('NFKC') !== run) return false;
  }
  return true;
}

/**
 * Normalises `original` (see the module comment). Text that normalising would not change (all ASCII,
 * or non-ASCII that is already NFKC without invisible or look-alike characters) comes back as is,
 * with no map, which keeps screening of ordinary tool output fast; otherwise only the non-ASCII
 * runs are processed.
 */
export function normalizeText(original: string): NormalizedText {
  if (!NON_ASCII.test(original) || unchangedByNormalizing(original)) return { text: original, offsets: undefined, original };
  let offsets = new Int32Array(original.length + 16);
  let size = 0;
  const push = (at: number): void => {
    if (size === offsets.length) {
      const grown = new Int32Array(offsets.length * 2);
      grown.set(offsets);
      offsets = grown;
    }
    offsets[size++] = at;
  };
  const parts: string[] = [];
  let last = 0;
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(original); m !== null; m = NON_ASCII_RUN.exec(original)) {
    parts.push(original.slice(last, m.index));
    for (let i = last; i < m.index; i++) push(i);
    let index = m.index;
    const run = m[0];
    // Most non-ASCII text (accented letters, CJK) is already NFKC with nothing invisible: kept as
    // is, one offset per unit. (A run that NFKC leaves unchanged has every character unchanged.)
    if (!ANY_INVISIBLE.test(run) && run.normalize('NFKC') === run) {
      parts.push(run);
      for (let i = 0; i < run.length; i++) push(index + i);
      last = index + run.length;
      continue;
    }
    for (const cp of run) {
      if (!INVISIBLE.test(cp)) {
        const folded = cp.normalize('NFKC');
        parts.push(folded);
        for (let k = 0; k < folded.length; k++) push(index);
      }
      index += cp.length;
    }
    last = index;
  }
  parts.push(original.slice(last));
  for (let i = last; i < original.length; i++) push(i);
  // Folding replaces one UTF-16 unit by one, so the offsets stay valid.
  const text = foldHomoglyphs(parts.join(''));
  return { text, offsets: offsets.subarray(0, size), original };
}

/** The span of the original text that produced `[start, end)` of the normalised text. */
export function originalSpan(normalized: NormalizedText, start: number, end: number): { start: number; end: number } {
  const { offsets, original } = normalized;
  if (offsets === undefined) return { start, end };
  const from = start < offsets.length ? offsets[start]! : original.length;
  if (end <= start) return { start: from, end: from };
  const last = offsets[Math.min(end, offsets.length) - 1]!;
  const cp = original.codePointAt(last) ?? 0;
  return { start: from, end: last + (cp > 0xffff ? 2 : 1) };
}
