/**
 * The source of a case-insensitive pattern with its literal letters lower-cased (escapes such as
 * `\S` or `\W` kept as written), so it can run without the `i` flag over lower-cased text: about
 * twice as fast. Only for the built-in patterns, whose sources are known not to use named groups,
 * back-references or property escapes (a test checks the twins find what the originals find).
 */
export function lowerCaseSource(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source.charAt(i);
    if (ch === '\\') {
      out += ch + source.charAt(i + 1);
      i++;
    } else {
      out += ch.toLowerCase();
    }
  }
  return out;
}

/** The `i`-less twin of a built-in pattern's regex, to run over lower-cased text. */
export function lowerCaseTwin(regex: RegExp): RegExp {
  return new RegExp(lowerCaseSource(regex.source), regex.flags.replace('i', ''));
}

/**
 * The built-in patterns prepared for one text: `scan` finds the first position where any of them
 * matches (one pass over the text, their sources joined as alternatives); `each` are the patterns
 * themselves, run only when `scan` found something.
 */
export interface BuiltInSet {
  scan: RegExp;
  each: readonly RegExp[];
}

/**
 * The top-level alternatives of a regex source (`a|b(c|d)|e` → `a`, `b(c|d)`, `e`), split outside
 * groups and character classes.
 */
export function topLevelAlternatives(source: string): string[] {
  const alternatives: string[] = [];
  let depth = 0;
  let inClass = false;
  let current = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source.charAt(i);
    if (ch === '\\') {
      current += ch + source.charAt(i + 1);
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === '(') {
      depth++;
    } else if (ch === ')') {
      depth--;
    } else if (ch === '|' && depth === 0) {
      alternatives.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  alternatives.push(current);
  return alternatives;
}

/**
 * One regex that matches where any of `regexes` matches: their alternatives side by side, those
 * that begin at a word boundary grouped behind a single `\b` (inside a word, most positions of a
 * text, the scan then fails on one check instead of one per alternative). About twice as fast as
 * the joined sources, and four times as fast as fifteen separate scans.
 */
export function combinedScan(regexes: readonly RegExp[]): RegExp {
  const flags = new Set(['g']);
  for (const regex of regexes) for (const flag of regex.flags) if (flag !== 'y' && flag !== 'g') flags.add(flag);
  const alternatives = regexes.flatMap((r) => topLevelAlternatives(r.source));
  const atWord = alternatives.filter((a) => a.startsWith('\\b')).map((a) => `(?:${a.slice(2)})`);
  const others = alternatives.filter((a) => !a.startsWith('\\b')).map((a) => `(?:${a})`);
  const parts = [...(atWord.length > 0 ? [`\\b(?:${atWord.join('|')})`] : []), ...others];
  return new RegExp(parts.join('|'), [...flags].join(''));
}

/** The set of `regexes` (see {@link BuiltInSet}). */
export function builtInSet(regexes: readonly RegExp[]): BuiltInSet {
  return { scan: combinedScan(regexes), each: regexes };
}
