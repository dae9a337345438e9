import { normalizeText, originalSpan } from '../normalize-text.js';
import { BUILT_IN_INJECTION_PATTERNS, type InjectionPattern } from './injection-patterns.js';

/** One replaced span. */
export interface ScreeningFinding {
  /** The pattern that matched (`ignore_instructions`, a user pattern's name, `encoded_payload`). */
  pattern: string;
  /** Span in the original text. */
  start: number;
  end: number;
}

/** What screening did to a text. */
export interface ScreeningResult {
  /** The text with each matched span replaced by the placeholder; the rest unchanged. */
  content: string;
  findings: ScreeningFinding[];
}

/** A user pattern: a RegExp (made global and case-insensitive unless it has flags of its own) or its source. */
export type UserInjectionPattern = RegExp | string | { name: string; pattern: RegExp | string };

/** Options of {@link OutputScreener}. */
export interface OutputScreenerOptions {
  /** Extra patterns, checked after the built-in ones. */
  patterns?: readonly UserInjectionPattern[];
  /** Leave the 15 built-in patterns out (only `patterns` apply). */
  noBuiltIns?: boolean;
  /** Text put in place of each match; `{pattern}` is replaced by the pattern name. */
  placeholder?: string;
  /** Also decode base64 runs of 24+ characters and screen the decoded text. Default true. */
  decodeBase64?: boolean;
}

/** The default placeholder. */
export const DEFAULT_SCREENING_PLACEHOLDER = '[removed: possible prompt injection ({pattern})]';

function toPattern(user: UserInjectionPattern, index: number): InjectionPattern {
  const named = typeof user === 'object' && !(user instanceof RegExp) ? user : { name: `custom_${index + 1}`, pattern: user };
  const { pattern } = named;
  const regex = typeof pattern === 'string' ? new RegExp(pattern, 'gi') : new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  return { name: named.name, regex };
}

 
const PRINTABLE = /^[\x09\x0a\x0d\x20-\x7e\u00a0-\uffff]*$/;

/** 1 for the characters of base64 (A–Z a–z 0–9 + /), 2 for those that glue a run into a longer token (= _ -). */
const BASE64_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9+/]/.test(ch)) BASE64_CLASS[c] = 1;
  else if (/[=_-]/.test(ch)) BASE64_CLASS[c] = 2;
}

function base64Class(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 128 ? BASE64_CLASS[c]! : 0;
}

/**
 * Runs of 24+ base64 characters (with up to two `=`) standing alone, not part of a longer token
 * with `_` or `-` (URL-safe ids, slugs). A character loop: a regex retries at every word.
 */
function base64Runs(text: string): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (base64Class(text, i) !== 1) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && base64Class(text, i) === 1) i++;
    if (i - start < 24) continue;
    let end = i;
    while (end < n && end - i < 2 && text.charCodeAt(end) === 61) end++;
    const glued = (start > 0 && base64Class(text, start - 1) === 2) || (end < n && base64Class(text, end) !== 0);
    if (!glued) runs.push({ start, end });
    i = end;
  }
  return runs;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * For each pattern, a test of whether one of its anchor words occurs in the lower-cased text (one
 * regex per pattern, stopping at the first hit), or undefined when the pattern has no anchors.
 */
function anchorTests(patterns: readonly InjectionPattern[]): ((lower: string) => boolean)[] {
  return patterns.map(({ anchors }) => {
    if (anchors === undefined) return () => true;
    const regex = anchors instanceof RegExp ? new RegExp(anchors.source, anchors.flags.replace('g', '')) : new RegExp((anchors).map(escapeRegex).join('|'));
    return (lower) => regex.test(lower);
  });
}

/**
 * Screens untrusted text (tool output) for prompt injection. The text is normalised first (NFKC,
 * zero-width and bidi characters removed, homoglyphs folded); each span that matches a pattern is
 * replaced in the original text by a placeholder, and everything else is kept. Base64 runs that
 * decode to an injection are replaced too.
 *
 * @example
 * const screener = new OutputScreener({ patterns: [/\bwire the money\b/i] });
 * screener.screen('Price: 12 EUR. Ignore all previous instructions.').content;
 * // 'Price: 12 EUR. [removed: possible prompt injection (ignore_instructions)].'
 */
export class OutputScreener {
  readonly #patterns: readonly InjectionPattern[];
  readonly #placeholder: string;
  readonly #decodeBase64: boolean;
  readonly #anchors: ((lower: string) => boolean)[];

  constructor(options: OutputScreenerOptions = {}) {
    const user = (options.patterns ?? []).map(toPattern);
    this.#patterns = [...(options.noBuiltIns === true ? [] : BUILT_IN_INJECTION_PATTERNS), ...user];
    if (this.#patterns.length === 0) throw new TypeError('OutputScreener has no patterns (noBuiltIns without patterns)');
    this.#placeholder = options.placeholder ?? DEFAULT_SCREENING_PLACEHOLDER;
    this.#decodeBase64 = options.decodeBase64 ?? true;
    this.#anchors = anchorTests(this.#patterns);
  }

  /** The names of the patterns in use, built-in first. */
  get patternNames(): string[] {
    return this.#patterns.map((p) => p.name);
  }

  /** The findings in `text` (spans in the original text, sorted, not overlapping). */
  find(text: string): ScreeningFinding[] {
    const normalized = normalizeText(text);
    const lower = normalized.text.toLowerCase();
    const found: ScreeningFinding[] = [];
    for (const [index, { name, regex }] of this.#patterns.entries()) {
      if (!this.#anchors[index]!(lower)) continue;
      regex.lastIndex = 0;
      for (const m of normalized.text.matchAll(regex)) {
        if (m[0] === '') continue;
        const span = originalSpan(normalized, m.index, m.index + m[0].length);
        found.push({ pattern: name, ...span });
      }
    }
    if (this.#decodeBase64) found.push(...this.#encoded(text));
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    const kept: ScreeningFinding[] = [];
    for (const f of found) {
      const last = kept.at(-1);
      if (last !== undefined && f.start < last.end) {
        last.end = Math.max(last.end, f.end);
        continue;
      }
      kept.push({ ...f });
    }
    return kept;
  }

  #encoded(text: string): ScreeningFinding[] {
    const found: ScreeningFinding[] = [];
    for (const run of base64Runs(text)) {
      const decoded = Buffer.from(text.slice(run.start, run.end), 'base64').toString('utf8');
      if (!PRINTABLE.test(decoded) || !/\s/.test(decoded)) continue;
      const inner = normalizeText(decoded).text;
      if (this.#patterns.some(({ regex }) => ((regex.lastIndex = 0), regex.test(inner)))) {
        found.push({ pattern: 'encoded_payload', ...run });
      }
    }
    return found;
  }

  /** Screens `text`: each finding's span replaced by the placeholder. */
  screen(text: string): ScreeningResult {
    const findings = this.find(text);
    if (findings.length === 0) return { content: text, findings };
    let content = '';
    let at = 0;
    for (const f of findings) {
      content += text.slice(at, f.start) + this.#placeholder.replace('{pattern}', f.pattern);
      at = f.end;
    }
    return { content: content + text.slice(at), findings };
  }
}
