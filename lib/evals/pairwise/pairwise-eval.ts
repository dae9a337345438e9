import type { Agent } from '../../agent/agent.js';
import { userMessage } from '../../core/message.js';
import { scriptedApprover } from '../run-case.js';
import type { EvalCase, Grader } from '../types.js';
import { PAIRWISE_SYSTEM, readPairwiseVerdict, type PositionReading } from './pairwise-verdict.js';

/** How a pair was judged: a side won, a tie, the judge could not be read, or a run failed. */
export type PairwiseWinner = 'a' | 'b' | 'tie' | 'invalid' | 'error';

/** One case judged side by side. */
export interface PairwiseCaseResult {
  id: string;
  input: string;
  outputA: string;
  outputB: string;
  winner: PairwiseWinner;
  /** With swapping: false when the two orders disagreed (the case is then a tie). */
  consistent: boolean;
  /** The judge's readings: A shown first, then (with swapping) B shown first, mapped back to a/b/tie. */
  judgements: { order: 'ab' | 'ba'; winner: 'a' | 'b' | 'tie' | 'invalid'; reason: string }[];
  /** Why the case is `invalid` or `error`. */
  problem?: string;
}

/** The outcome of a pairwise comparison. */
export interface PairwiseReport {
  a: string;
  b: string;
  cases: PairwiseCaseResult[];
  wins: Record<PairwiseWinner, number>;
  /** A's share of the decided cases, a tie counting half: (a + tie/2) / (a + b + tie); 0.5 when none was decided. */
  winRateA: number;
  /** Cases where the two orders disagreed. */
  inconsistent: number;
}

/** One side: a display name and the agent whose answers are compared (needed by `run`, not by `compareOutputs`). */
export interface PairwiseSide {
  name: string;
  agent?: Agent;
}

/** Options of {@link PairwiseEval}. */
export interface PairwiseEvalOptions {
  a: PairwiseSide;
  b: PairwiseSide;
  /** The judge (temperature 0). */
  grader: Grader;
  /** What "better" means. Default: correctness, then helpfulness, then clarity. */
  criterion?: string;
  /**
   * Judge each pair twice, in both orders, to cancel the judge's position bias: the two readings
   * must agree for a side to win, else the case is a tie. Default true.
   */
  swap?: boolean;
  /** Cases at once. Default 4. */
  maxConcurrency?: number;
  signal?: AbortSignal;
}

/** Pre-computed answers to compare: the case's id and input, and each side's output. */
export interface PairwiseItem {
  id: string;
  input: string;
  a: string;
  b: string;
}

const DEFAULT_CRITERION = 'Which answer better serves the user: correct first, then helpful and complete, then clear and concise.';

/**
 * Two agents (or two models, or two prompts) on the same cases, judged side by side by a grader.
 * Each pair is judged in both orders by default (position-bias mitigation): a side wins only when
 * both readings agree, a disagreement is a tie, and a reply with no parseable winner makes the case
 * `invalid` (counted apart, never a win).
 *
 * @example
 * const report = await new PairwiseEval({ a: { name: 'gpt-4o', agent: a }, b: { name: 'claude', agent: b }, grader }).run(cases);
 * console.log(report.wins, report.winRateA);
 */
export class PairwiseEval {
  readonly #options: PairwiseEvalOptions;

  constructor(options: PairwiseEvalOptions) {
    const max = options.maxConcurrency ?? 4;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`PairwiseEval: maxConcurrency must be an integer ≥ 1 (got ${max})`);
    this.#options = options;
  }

  /** Runs both agents on every case (skipped cases left out) and judges each pair. */
  async run(cases: readonly EvalCase[]): Promise<PairwiseReport> {
    const { a, b, signal } = this.#options;
    if (a.agent === undefined || b.agent === undefined) throw new TypeError(`PairwiseEval.run needs an agent on both sides (${a.agent === undefined ? a.name : b.name} has none); use compareOutputs for pre-computed answers`);
    const agents = { a: a.agent, b: b.agent };
    const results = await this.#pool(
      cases.filter((c) => c.skip !== true),
      async (evalCase): Promise<PairwiseCaseResult> => {
        const ask = (agent: Agent) => agent.ask(evalCase.input, { approve: scriptedApprover(evalCase), context: { ...evalCase.vars }, ...(signal === undefined ? {} : { signal }) });
        const [ra, rb] = await Promise.allSettled([ask(agents.a), ask(agents.b)]);
        const failed = [ra.status === 'rejected' ? `${a.name}: ${String((ra.reason as Error).message ?? ra.reason)}` : ra.value.status === 'completed' ? undefined : `${a.name}: run ${ra.value.status}`, rb.status === 'rejected' ? `${b.name}: ${String((rb.reason as Error).message ?? rb.reason)}` : rb.value.status === 'completed' ? undefined : `${b.name}: run ${rb.value.status}`].filter((m): m is string => m !== undefined);
        const outputA = ra.status === 'fulfilled' ? ra.value.content : '';
        const outputB = rb.status === 'fulfilled' ? rb.value.content : '';
        if (failed.length > 0) return { id: evalCase.id, input: evalCase.input, outputA, outputB, winner: 'error', consistent: true, judgements: [], problem: failed.join('; ') };
        return this.#judge({ id: evalCase.id, input: evalCase.input, a: outputA, b: outputB });
      },
    );
    return this.#report(results);
  }

  /** Judges pre-computed answers (no agent runs). */
  async compareOutputs(items: readonly PairwiseItem[]): Promise<PairwiseReport> {
    return this.#report(await this.#pool(items, (item) => this.#judge(item)));
  }

  async #judge(item: PairwiseItem): Promise<PairwiseCaseResult> {
    const orders: ('ab' | 'ba')[] = this.#options.swap === false ? ['ab'] : ['ab', 'ba'];
    const judgements: PairwiseCaseResult['judgements'] = [];
    const problems: string[] = [];
    for (const order of orders) {
      let reading: PositionReading;
      try {
        reading = await this.#ask(item, order);
      } catch (error) {
        return { id: item.id, input: item.input, outputA: item.a, outputB: item.b, judgements, winner: 'error', consistent: true, problem: `the judge failed: ${error instanceof Error ? error.message : String(error)}` };
      }
      if (!reading.ok) {
        problems.push(reading.problem);
        judgements.push({ order, winner: 'invalid', reason: reading.problem });
        continue;
      }
      const winner = reading.winner === 'tie' ? 'tie' : (reading.winner === '1') === (order === 'ab') ? 'a' : 'b';
      judgements.push({ order, winner, reason: reading.reason });
    }
    const base = { id: item.id, input: item.input, outputA: item.a, outputB: item.b, judgements };
    if (problems.length > 0) return { ...base, winner: 'invalid', consistent: true, problem: problems.join('; ') };
    const winners = new Set(judgements.map((j) => j.winner));
    const consistent = winners.size === 1;
    return { ...base, winner: consistent ? (judgements[0]?.winner as 'a' | 'b' | 'tie') : 'tie', consistent };
  }

  async #ask(item: PairwiseItem, order: 'ab' | 'ba'): Promise<PositionReading> {
    const { provider, model } = this.#options.grader;
    const [first, second] = order === 'ab' ? [item.a, item.b] : [item.b, item.a];
    const prompt = [`Criterion: ${this.#options.criterion ?? DEFAULT_CRITERION}`, `Question:\n${item.input}`, `Answer 1:\n${first}`, `Answer 2:\n${second}`].join('\n\n');
    const response = await provider.complete({
      model: model ?? provider.defaultModel,
      system: PAIRWISE_SYSTEM,
      messages: [userMessage(prompt)],
      temperature: 0,
      maxTokens: 300,
      ...(this.#options.signal === undefined ? {} : { signal: this.#options.signal }),
    });
    return readPairwiseVerdict(response.message.content);
  }

  async #pool<T>(items: readonly T[], work: (item: T) => Promise<PairwiseCaseResult>): Promise<PairwiseCaseResult[]> {
    const results: PairwiseCaseResult[] = new Array<PairwiseCaseResult>(items.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
    };
    await Promise.all(Array.from({ length: Math.min(this.#options.maxConcurrency ?? 4, Math.max(1, items.length)) }, worker));
    return results;
  }

  #report(cases: PairwiseCaseResult[]): PairwiseReport {
    const wins: Record<PairwiseWinner, number> = { a: 0, b: 0, tie: 0, invalid: 0, error: 0 };
    for (const c of cases) wins[c.winner]++;
    const decided = wins.a + wins.b + wins.tie;
    return { a: this.#options.a.name, b: this.#options.b.name, cases, wins, winRateA: decided === 0 ? 0.5 : (wins.a + wins.tie / 2) / decided, inconsistent: cases.filter((c) => !c.consistent).length };
  }
}
