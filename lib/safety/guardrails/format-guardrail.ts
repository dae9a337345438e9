import { Guardrail, type GuardrailFinding, type GuardrailOptions } from './guardrail.js';

/** Options of {@link FormatGuardrail}. */
export interface FormatGuardrailOptions extends GuardrailOptions {
  /** The content must be JSON. */
  json?: boolean;
  /** Keys the JSON object must have (implies `json`). */
  requiredKeys?: readonly string[];
  /** Longest content in characters. */
  maxLength?: number;
}

const FENCED = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/;

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Checks structure: valid JSON, required top-level keys, a maximum length. `rewrite` can only fix
 * JSON wrapped in a Markdown code fence (it unwraps it); any other failure blocks.
 */
export class FormatGuardrail extends Guardrail {
  readonly #json: boolean;
  readonly #requiredKeys: readonly string[];
  readonly #maxLength: number | undefined;

  constructor(options: FormatGuardrailOptions) {
    super('format', options);
    if (options.maxLength !== undefined && !(Number.isInteger(options.maxLength) && options.maxLength >= 0)) {
      throw new TypeError(`FormatGuardrail maxLength must be a non-negative integer; got ${String(options.maxLength)}`);
    }
    this.#requiredKeys = options.requiredKeys ?? [];
    this.#json = options.json === true || this.#requiredKeys.length > 0;
    this.#maxLength = options.maxLength;
    if (!this.#json && this.#maxLength === undefined) throw new TypeError('FormatGuardrail needs json, requiredKeys or maxLength');
  }

  #problems(text: string): string[] {
    const problems: string[] = [];
    if (this.#maxLength !== undefined && text.length > this.#maxLength) problems.push(`longer than ${this.#maxLength} characters (${text.length})`);
    if (!this.#json) return problems;
    const parsed = parseJson(text);
    if (!parsed.ok) return [...problems, 'not valid JSON'];
    if (this.#requiredKeys.length > 0) {
      const value = parsed.value;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return [...problems, 'not a JSON object'];
      const missing = this.#requiredKeys.filter((k) => !Object.hasOwn(value, k));
      if (missing.length > 0) problems.push(`missing keys: ${missing.join(', ')}`);
    }
    return problems;
  }

  protected evaluate(text: string): GuardrailFinding | undefined {
    const problems = this.#problems(text);
    if (problems.length === 0) return undefined;
    const fenced = FENCED.exec(text)?.[1];
    const fixed = fenced !== undefined && this.#problems(fenced).length === 0 ? fenced : undefined;
    return { reasons: problems, ...(fixed === undefined ? {} : { rewritten: fixed }) };
  }
}
