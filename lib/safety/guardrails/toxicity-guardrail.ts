import { normalizeText, originalSpan } from '../normalize-text.js';
import { Guardrail, type GuardrailFinding, type GuardrailOptions } from './guardrail.js';

/** The default blocklist (16 terms): insults and hostile phrases. Each hit adds to the score. */
export const DEFAULT_TOXIC_TERMS: readonly string[] = [
  'idiot', 'idiots', 'stupid', 'moron', 'morons', 'dumbass', 'imbecile', 'loser', 'pathetic', 'worthless',
  'shut up', 'screw you', 'piece of crap', 'hate you', 'scumbag', 'jackass',
];

/** Terms where one hit fails the check whatever the threshold: threats and self-harm incitement. */
export const DEFAULT_SEVERE_TERMS: readonly string[] = [
  'kill yourself', 'kys', 'go die', 'i will kill you', 'i will hurt you', 'you should die', 'hope you die',
];

/** Options of {@link ToxicityGuardrail}. */
export interface ToxicityGuardrailOptions extends GuardrailOptions {
  /** Extra blocklisted terms (added to the defaults unless `replaceDefaults`). */
  blocklist?: readonly string[];
  /** Extra severe terms: one hit fails the check. */
  severe?: readonly string[];
  /** Use only the given lists, not the defaults. */
  replaceDefaults?: boolean;
  /** Score (0–1) at or above which the check fails. Default 0.5: one blocklisted term. */
  threshold?: number;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function termRegex(terms: readonly string[]): RegExp | undefined {
  const clean = [...new Set(terms.map((t) => normalizeText(t.trim()).text.toLowerCase()).filter((t) => t !== ''))];
  if (clean.length === 0) return undefined;
  const alternatives = clean.sort((a, b) => b.length - a.length).map((t) => t.split(/\s+/).map(escape).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/**
 * Scores text against a blocklist: each hit of a blocklisted term adds to the score
 * (`1 − 0.5^hits`: one hit 0.5, two 0.75, three 0.875), and a severe term scores 1 at once. The
 * check fails when the score reaches `threshold` (default 0.5, so one insult is enough; raise it
 * to need more). Matching is whole-word, case-insensitive, after Unicode normalisation. `rewrite`
 * masks each term with asterisks.
 */
export class ToxicityGuardrail extends Guardrail {
  readonly #mild: RegExp | undefined;
  readonly #severe: RegExp | undefined;
  /** Score at or above which the check fails. */
  readonly threshold: number;

  constructor(options: ToxicityGuardrailOptions = {}) {
    super('toxicity', options);
    const threshold = options.threshold ?? 0.5;
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw new TypeError(`ToxicityGuardrail threshold must be a number from 0 to 1; got ${String(threshold)}`);
    this.threshold = threshold;
    const defaults = options.replaceDefaults === true;
    this.#mild = termRegex([...(defaults ? [] : DEFAULT_TOXIC_TERMS), ...(options.blocklist ?? [])]);
    this.#severe = termRegex([...(defaults ? [] : DEFAULT_SEVERE_TERMS), ...(options.severe ?? [])]);
    if (this.#mild === undefined && this.#severe === undefined) throw new TypeError('ToxicityGuardrail needs at least one term');
  }

  /** The score of `text` (0–1) and the terms found. */
  score(text: string): { score: number; terms: string[]; severe: boolean } {
    const normalized = normalizeText(text).text;
    const severe = this.#severe === undefined ? [] : [...normalized.matchAll(this.#severe)].map((m) => m[0].toLowerCase());
    const mild = this.#mild === undefined ? [] : [...normalized.matchAll(this.#mild)].map((m) => m[0].toLowerCase());
    const score = severe.length > 0 ? 1 : 1 - 0.5 ** mild.length;
    return { score, terms: [...new Set([...severe, ...mild])], severe: severe.length > 0 };
  }

  protected evaluate(text: string): GuardrailFinding | undefined {
    const { score, terms, severe } = this.score(text);
    if (terms.length === 0 || score < this.threshold) return undefined;
    const normalized = normalizeText(text);
    const spans = [this.#severe, this.#mild]
      .flatMap((regex) => (regex === undefined ? [] : [...normalized.text.matchAll(regex)]))
      .map((m) => originalSpan(normalized, m.index, m.index + m[0].length))
      .sort((a, b) => a.start - b.start);
    let rewritten = '';
    let at = 0;
    for (const span of spans) {
      if (span.start < at) continue;
      rewritten += text.slice(at, span.start) + '*'.repeat(Math.max(3, span.end - span.start));
      at = span.end;
    }
    rewritten += text.slice(at);
    const why = severe ? 'severe term' : `score ${score.toFixed(2)} ≥ ${this.threshold}`;
    return { reasons: [`toxic content (${why}): ${terms.length} term${terms.length === 1 ? '' : 's'}`], matches: terms, rewritten };
  }
}
