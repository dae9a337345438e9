import { detectPii, redactMatches } from '../pii/detect-pii.js';
import { PII_TYPES, type CustomPiiPattern, type PiiType } from '../pii/pii-types.js';
import { Guardrail, type GuardrailFinding, type GuardrailOptions } from './guardrail.js';

/** Options of {@link PIIGuardrail}. */
export interface PIIGuardrailOptions extends GuardrailOptions {
  /** Kinds to detect. Default all: email, phone, ssn, credit_card, ipv4, ipv6, iban. */
  entities?: readonly PiiType[];
  /** Extra patterns: `{ name: 'employee_id', pattern: /\bEMP-\d{6}\b/ }` (masked as `[EMPLOYEE_ID]`). */
  patterns?: readonly CustomPiiPattern[];
}

/**
 * Finds personal data (see `detectPii`). With action `rewrite` every match is replaced by a typed
 * token (`[EMAIL]`, `[PHONE]`, `[SSN]`, `[CARD]`, `[IP_ADDRESS]`, `[IBAN]`, `[CUSTOM_NAME]`), the
 * rest of the text unchanged. Events and errors name the kinds found, never the data.
 *
 * @example
 * const pii = new PIIGuardrail({ action: 'rewrite', entities: ['email', 'credit_card'] });
 * (await pii.check('mail me at ana@example.org')).content; // 'mail me at [EMAIL]'
 */
export class PIIGuardrail extends Guardrail {
  readonly #entities: readonly PiiType[];
  readonly #patterns: readonly CustomPiiPattern[];

  constructor(options: PIIGuardrailOptions = {}) {
    super('pii', options);
    for (const entity of options.entities ?? []) {
      if (!PII_TYPES.includes(entity)) throw new TypeError(`unknown PII entity ${JSON.stringify(entity)} (known: ${PII_TYPES.join(', ')})`);
    }
    for (const custom of options.patterns ?? []) {
      // Compile now: a bad pattern fails at construction, not in the middle of a run.
      if (typeof custom.pattern === 'string') new RegExp(custom.pattern, 'g');
    }
    this.#entities = options.entities ?? PII_TYPES;
    this.#patterns = options.patterns ?? [];
  }

  protected evaluate(text: string): GuardrailFinding | undefined {
    const matches = detectPii(text, { types: this.#entities, custom: this.#patterns });
    if (matches.length === 0) return undefined;
    const counts = new Map<string, number>();
    for (const m of matches) counts.set(m.type, (counts.get(m.type) ?? 0) + 1);
    return {
      reasons: [`personal data found: ${[...counts].map(([type, n]) => `${n} ${type}`).join(', ')}`],
      matches: matches.map((m) => m.mask),
      rewritten: redactMatches(text, matches),
    };
  }
}
