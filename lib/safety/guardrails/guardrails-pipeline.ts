import { GuardrailError } from '../../core/errors/guardrail-error.js';
import type { Guardrail, GuardrailAction, GuardrailStage } from './guardrail.js';

/** A guardrail that failed (what the pipeline reports as a `guardrail-triggered` event). */
export interface GuardrailTrigger {
  guardrail: string;
  stage: GuardrailStage;
  action: GuardrailAction;
  reason: string;
  /** Safe descriptions of what matched (typed masks, keywords); never raw personal data. */
  matches: string[];
}

/** Called once per failed guardrail, before a block throws. */
export type GuardrailReporter = (trigger: GuardrailTrigger) => void | Promise<void>;

/** The guardrails of each stage, in order. */
export interface GuardrailsPipelineOptions {
  /** Checks on the user's input. */
  input?: readonly Guardrail[];
  /** Checks on the final answer. */
  output?: readonly Guardrail[];
  /**
   * Checks on a tool call's arguments (as JSON text), before the call runs. A block stops the call
   * and the model is told why; `rewrite` is refused here (arguments are not rewritten as text).
   */
  toolArguments?: readonly Guardrail[];
  /** Checks on a tool's result before the model sees it. A block replaces the result with an error. */
  toolResult?: readonly Guardrail[];
}

/**
 * Runs guardrails in order, per stage. Each guardrail sees the content as the previous one left
 * it (a rewrite is what later guardrails see). A failed `warn` reports and goes on with the content
 * unchanged; `rewrite` reports and goes on with the sanitised content; `block` reports and throws
 * a {@link GuardrailError}.
 *
 * @example
 * const guardrails = new GuardrailsPipeline({
 *   input: [new TopicGuardrail({ keywords: ['weapons'] })],
 *   output: [new PIIGuardrail({ action: 'rewrite' })],
 * });
 * const agent = new Agent({ provider, guardrails });
 */
export class GuardrailsPipeline {
  readonly input: readonly Guardrail[];
  readonly output: readonly Guardrail[];
  readonly toolArguments: readonly Guardrail[];
  readonly toolResult: readonly Guardrail[];

  constructor(options: GuardrailsPipelineOptions = {}) {
    this.input = [...(options.input ?? [])];
    this.output = [...(options.output ?? [])];
    this.toolArguments = [...(options.toolArguments ?? [])];
    this.toolResult = [...(options.toolResult ?? [])];
    const rewriting = this.toolArguments.find((g) => g.action === 'rewrite');
    if (rewriting !== undefined) {
      throw new TypeError(`guardrail "${rewriting.name}" has action rewrite, which tool arguments do not support (use block or warn)`);
    }
  }

  /** True when no stage has a guardrail. */
  get empty(): boolean {
    return this.input.length + this.output.length + this.toolArguments.length + this.toolResult.length === 0;
  }

  /** The guardrails of one stage. */
  stage(stage: GuardrailStage): readonly Guardrail[] {
    switch (stage) {
      case 'input':
        return this.input;
      case 'output':
        return this.output;
      case 'tool-arguments':
        return this.toolArguments;
      case 'tool-result':
        return this.toolResult;
    }
  }

  /** Checks the user's input; returns the content to use (rewritten or not) or throws GuardrailError. */
  checkInput(content: string, report?: GuardrailReporter): Promise<string> {
    return this.run('input', content, report);
  }

  /** Checks the final answer; returns the content to use or throws GuardrailError. */
  checkOutput(content: string, report?: GuardrailReporter): Promise<string> {
    return this.run('output', content, report);
  }

  /** Runs the guardrails of `stage` over `content` (see the class comment). */
  async run(stage: GuardrailStage, content: string, report?: GuardrailReporter): Promise<string> {
    let current = content;
    for (const guardrail of this.stage(stage)) {
      const result = await guardrail.check(current);
      if (result.passed) continue;
      const reason = result.reasons.join('; ') || 'check failed';
      await report?.({ guardrail: guardrail.name, stage, action: result.action, reason, matches: result.matches });
      if (result.action === 'block') throw new GuardrailError({ guardrail: guardrail.name, reason, stage });
      if (result.action === 'rewrite') current = result.content;
    }
    return current;
  }
}
