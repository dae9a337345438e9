/** What a guardrail does when its check fails. */
export type GuardrailAction = 'block' | 'rewrite' | 'warn';

/** Where a guardrail runs: the user's input, the final answer, a tool call's arguments, a tool's result. */
export type GuardrailStage = 'input' | 'output' | 'tool-arguments' | 'tool-result';

/** The actions, for validation. */
export const GUARDRAIL_ACTIONS: readonly GuardrailAction[] = ['block', 'rewrite', 'warn'];

/** The outcome of one check. */
export interface GuardrailResult {
  /** True when the content is acceptable as it is. */
  passed: boolean;
  /** The guardrail's action (what the pipeline does when `passed` is false). */
  action: GuardrailAction;
  /** The content to continue with: the rewritten text for `rewrite`, else the input unchanged. */
  content: string;
  /** Why the check failed (empty when it passed). */
  reasons: string[];
  /**
   * What matched, safe to log: a typed mask (`[EMAIL]`, `[CARD]`), a keyword, a term. Never the raw
   * matched text of a detector that finds secrets or personal data.
   */
  matches: string[];
}

/** Options every guardrail takes. */
export interface GuardrailOptions {
  /** Default `block`. */
  action?: GuardrailAction;
  /** Name in events, traces and errors. Default: the guardrail's kind (`pii`, `topic`, …). */
  name?: string;
}

/**
 * A check on text. Subclasses implement {@link Guardrail.evaluate}; {@link Guardrail.check} turns
 * its findings into a {@link GuardrailResult}. `check` may be async (a guardrail that calls a model).
 *
 * @example
 * class NoShouting extends Guardrail {
 *   constructor() { super('no-shouting', { action: 'rewrite' }); }
 *   protected evaluate(text: string) {
 *     const loud = text.length > 0 && text === text.toUpperCase();
 *     return loud ? { reasons: ['all capitals'], rewritten: text.toLowerCase() } : undefined;
 *   }
 * }
 */
export abstract class Guardrail {
  /** Name in events, traces and errors. */
  readonly name: string;
  /** What a failed check does. */
  readonly action: GuardrailAction;

  protected constructor(kind: string, options: GuardrailOptions = {}) {
    const action = options.action ?? 'block';
    if (!GUARDRAIL_ACTIONS.includes(action)) throw new TypeError(`guardrail action must be block, rewrite or warn; got ${JSON.stringify(action)}`);
    this.name = options.name ?? kind;
    this.action = action;
  }

  /**
   * The findings on `text`, or undefined when it passes. `rewritten` is the sanitised text (used by
   * action `rewrite`; a finding without one cannot be rewritten and blocks instead).
   */
  protected abstract evaluate(text: string): GuardrailFinding | undefined | Promise<GuardrailFinding | undefined>;

  /** Checks `content`. Never throws for a failed check: the pipeline applies the action. */
  async check(content: string): Promise<GuardrailResult> {
    const finding = await this.evaluate(content);
    if (finding === undefined) return { passed: true, action: this.action, content, reasons: [], matches: [] };
    const rewritten = this.action === 'rewrite' ? finding.rewritten : undefined;
    return {
      passed: false,
      // A rewrite that has no sanitised text to offer (too short, not JSON) cannot let the content through.
      action: this.action === 'rewrite' && rewritten === undefined ? 'block' : this.action,
      content: rewritten ?? content,
      reasons: finding.reasons,
      matches: finding.matches ?? [],
    };
  }
}

/** What {@link Guardrail.evaluate} found. */
export interface GuardrailFinding {
  reasons: string[];
  /** Safe descriptions of what matched (see GuardrailResult.matches). */
  matches?: string[];
  /** The sanitised content, when the failure can be rewritten. */
  rewritten?: string;
}
