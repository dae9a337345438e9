/**
 * Shell-style glob patterns (the `fnmatch` dialect), matched against the whole text, case-sensitively:
 *
 * - `*` any run of characters (including none, `/` and newlines), `?` exactly one character;
 * - `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` (negated), and POSIX classes such as `[[:digit:]]`;
 *   a `]` right after the opening `[` (or `[!`) is a member, so `[]]` matches `]`;
 * - every other character is literal (there is no backslash escape: write `[*]` for a literal `*`).
 *
 * An unclosed `[` or an unknown `[:class:]` is an error rather than a silent literal, because a
 * policy pattern that never matches is a security bug.
 */

import { GlobSyntaxError } from '../core/errors/glob-syntax-error.js';

/** POSIX character classes usable inside brackets, as regex class bodies (ASCII, like C's locale). */
const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: 'A-Za-z0-9',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: '0-9A-Fa-f',
};

/** A compiled glob: `test(text)` is true when the whole of `text` matches. */
export interface Glob {
  readonly pattern: string;
  test(text: string): boolean;
}

/** One step of a pattern: a `*`, or a matcher of exactly one character. */
type Token = { readonly star: true } | { readonly star: false; readonly one: (ch: string) => boolean };

const STAR: Token = { star: true };
const cache = new Map<string, Glob>();

/**
 * Compiles `pattern` (cached). Throws GlobSyntaxError. Matching never backtracks more than to
 * the last `*`, so it takes at most (text length × pattern length) steps: a model-chosen argument
 * cannot make a policy check hang, as it could with a regular expression such as `^.*a.*a.*b$`.
 */
export function compileGlob(pattern: string): Glob {
  let glob = cache.get(pattern);
  if (glob === undefined) {
    const tokens = tokenize(pattern);
    glob = { pattern, test: (text) => matchTokens(tokens, Array.from(text)) };
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, glob);
  }
  return glob;
}

/** True when `text` matches the whole of `pattern` (case-sensitive). */
export function matchesGlob(pattern: string, text: string): boolean {
  return compileGlob(pattern).test(text);
}

/** True when `pattern` contains glob syntax (otherwise it only matches itself). */
export function isGlobPattern(pattern: string): boolean {
  return /[*?[]/.test(pattern);
}

/** Wildcard matching with a single backtrack point (the most recent `*`). */
function matchTokens(tokens: readonly Token[], chars: readonly string[]): boolean {
  let t = 0;
  let c = 0;
  let starToken = -1;
  let starChar = 0;
  while (c < chars.length) {
    const token = tokens[t];
    if (token !== undefined && token.star) {
      starToken = t++;
      starChar = c;
    } else if (token !== undefined && token.one(chars[c] as string)) {
      t++;
      c++;
    } else if (starToken !== -1) {
      t = starToken + 1;
      c = ++starChar;
    } else {
      return false;
    }
  }
  while (tokens[t]?.star === true) t++;
  return t === tokens.length;
}

function tokenize(pattern: string): Token[] {
  const chars = [...pattern];
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i] as string;
    if (ch === '*') {
      if (tokens.at(-1) !== STAR) tokens.push(STAR);
      i++;
    } else if (ch === '?') {
      tokens.push({ star: false, one: () => true });
      i++;
    } else if (ch === '[') {
      const { source, next } = translateClass(pattern, chars, i);
      const regex = new RegExp(`^${source}$`, 'su');
      tokens.push({ star: false, one: (c) => regex.test(c) });
      i = next;
    } else {
      tokens.push({ star: false, one: (c) => c === ch });
      i++;
    }
  }
  return tokens;
}

/** Translates the bracket expression opening at `start`; returns the regex class and the index after it. */
function translateClass(pattern: string, chars: readonly string[], start: number): { source: string; next: number } {
  let i = start + 1;
  let negated = false;
  if (chars[i] === '!' || chars[i] === '^') {
    negated = true;
    i++;
  }
  let body = '';
  let first = true;
  for (;;) {
    const ch = chars[i];
    if (ch === undefined) throw new GlobSyntaxError(pattern, `unclosed "[" at position ${start + 1} (write "[[]" for a literal "[")`);
    if (ch === ']' && !first) break;
    first = false;
    if (ch === '[' && chars[i + 1] === ':') {
      const close = findPosixClassEnd(chars, i + 2);
      if (close !== -1) {
        const name = chars.slice(i + 2, close).join('');
        const members = POSIX_CLASSES[name];
        if (members === undefined) {
          throw new GlobSyntaxError(pattern, `unknown character class "[:${name}:]" (known: ${Object.keys(POSIX_CLASSES).join(', ')})`);
        }
        body += members;
        i = close + 2;
        continue;
      }
    }
    const low = ch;
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      const high = chars[i + 2] as string;
      if ((low.codePointAt(0) ?? 0) > (high.codePointAt(0) ?? 0)) {
        throw new GlobSyntaxError(pattern, `range "${low}-${high}" is reversed`);
      }
      body += `${escapeClassMember(low)}-${escapeClassMember(high)}`;
      i += 3;
    } else {
      body += escapeClassMember(low);
      i++;
    }
  }
  return { source: `[${negated ? '^' : ''}${body}]`, next: i + 1 };
}

/** Index of the `:` of the closing `:]` of a POSIX class whose name starts at `from`, or -1. */
function findPosixClassEnd(chars: readonly string[], from: number): number {
  for (let j = from; j < chars.length; j++) {
    const ch = chars[j] as string;
    if (ch === ':' && chars[j + 1] === ']') return j;
    if (!/[a-z]/.test(ch)) return -1;
  }
  return -1;
}

function escapeClassMember(ch: string): string {
  return /[\\\]^[-]/.test(ch) ? `\\${ch}` : ch;
}

/** Re-exported for callers of the glob module. */
export { GlobSyntaxError };
