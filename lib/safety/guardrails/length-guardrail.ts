import { Guardrail, type GuardrailFinding, type GuardrailOptions } from './guardrail.js';

/** Options of {@link LengthGuardrail}. */
export interface LengthGuardrailOptions extends GuardrailOptions {
  minChars?: number;
  maxChars?: number;
  minWords?: number;
  maxWords?: number;
}

function words(text: string): RegExpExecArray[] {
  return [...text.matchAll(/\S+/g)];
}

/**
 * Checks the length in characters and words. `rewrite` truncates a text that is too long at the
 * last word boundary within the limits (a single word longer than `maxChars` is cut); text that is
 * too short cannot be rewritten and blocks.
 */
export class LengthGuardrail extends Guardrail {
  readonly #limits: Required<{ [K in keyof LengthGuardrailOptions as K extends 'action' | 'name' ? never : K]: number | undefined }>;

  constructor(options: LengthGuardrailOptions) {
    super('length', options);
    const { minChars, maxChars, minWords, maxWords } = options;
    for (const [key, value] of Object.entries({ minChars, maxChars, minWords, maxWords })) {
      if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new TypeError(`LengthGuardrail ${key} must be a non-negative integer; got ${String(value)}`);
    }
    if (minChars === undefined && maxChars === undefined && minWords === undefined && maxWords === undefined) {
      throw new TypeError('LengthGuardrail needs at least one of minChars, maxChars, minWords, maxWords');
    }
    this.#limits = { minChars, maxChars, minWords, maxWords };
  }

  protected evaluate(text: string): GuardrailFinding | undefined {
    const { minChars, maxChars, minWords, maxWords } = this.#limits;
    const list = words(text);
    const reasons: string[] = [];
    if (minChars !== undefined && text.length < minChars) reasons.push(`shorter than ${minChars} characters (${text.length})`);
    if (maxChars !== undefined && text.length > maxChars) reasons.push(`longer than ${maxChars} characters (${text.length})`);
    if (minWords !== undefined && list.length < minWords) reasons.push(`fewer than ${minWords} words (${list.length})`);
    if (maxWords !== undefined && list.length > maxWords) reasons.push(`more than ${maxWords} words (${list.length})`);
    if (reasons.length === 0) return undefined;
    const tooShort = (minChars !== undefined && text.length < minChars) || (minWords !== undefined && list.length < minWords);
    return tooShort ? { reasons } : { reasons, rewritten: this.#truncate(text, list) };
  }

  #truncate(text: string, list: readonly RegExpExecArray[]): string {
    const { maxChars, maxWords } = this.#limits;
    let end = text.length;
    if (maxWords !== undefined && list.length > maxWords) {
      const last = list[maxWords - 1];
      end = last === undefined ? 0 : last.index + last[0].length;
    }
    if (maxChars !== undefined && end > maxChars) {
      // The end of the last word that fits; a first word longer than the limit is cut.
      const fitting = list.filter((w) => w.index + w[0].length <= maxChars);
      const last = fitting.at(-1);
      end = last === undefined ? maxChars : last.index + last[0].length;
    }
    return text.slice(0, end);
  }
}
