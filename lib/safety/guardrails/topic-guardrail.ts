import { normalizeText, originalSpan } from '../normalize-text.js';
import { Guardrail, type GuardrailFinding, type GuardrailOptions } from './guardrail.js';

/** Options of {@link TopicGuardrail}. */
export interface TopicGuardrailOptions extends GuardrailOptions {
  /** Blocked topics: words or phrases, matched as whole words, case-insensitively. */
  keywords: readonly string[];
  /** What a keyword is replaced with by action `rewrite`. Default `[REDACTED]`. */
  replacement?: string;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Fails when the text mentions a blocked topic. Matching is on whole words (`gun` does not match
 * `begun`), case-insensitive, after Unicode normalisation (NFKC, zero-width and bidi characters
 * removed, look-alike letters folded), so `ｗｅａｐｏｎｓ` and `wea\u200Bpons` still match. A phrase
 * matches with any whitespace between its words. `rewrite` replaces each mention.
 */
export class TopicGuardrail extends Guardrail {
  readonly #regex: RegExp;
  readonly #replacement: string;

  constructor(options: TopicGuardrailOptions) {
    super('topic', options);
    const keywords = (options.keywords ?? []).map((k) => normalizeText(k.trim()).text.toLowerCase()).filter((k) => k !== '');
    if (keywords.length === 0) throw new TypeError('TopicGuardrail needs at least one keyword');
    const alternatives = keywords.sort((a, b) => b.length - a.length).map((k) => k.split(/\s+/).map(escape).join('\\s+'));
    // Letters and digits of any script are word characters (so `gun` is not found inside `gunnar` or `begun`).
    this.#regex = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
    this.#replacement = options.replacement ?? '[REDACTED]';
  }

  protected evaluate(text: string): GuardrailFinding | undefined {
    const normalized = normalizeText(text);
    const found = [...normalized.text.matchAll(this.#regex)];
    if (found.length === 0) return undefined;
    const topics = [...new Set(found.map((m) => m[0].toLowerCase().replace(/\s+/g, ' ')))];
    let rewritten = '';
    let at = 0;
    for (const m of found) {
      const span = originalSpan(normalized, m.index, m.index + m[0].length);
      rewritten += text.slice(at, span.start) + this.#replacement;
      at = span.end;
    }
    rewritten += text.slice(at);
    return { reasons: [`blocked topic: ${topics.join(', ')}`], matches: topics, rewritten };
  }
}
