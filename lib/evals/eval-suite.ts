import type { Agent } from '../agent/agent.js';
import { generateId } from '../core/ids.js';
import { EventBus } from '../events/bus.js';
import type { AgentObserver } from '../events/observer.js';
import type { AgentEvent, AgentEventPayloads } from '../events/types.js';
import { combineAttempts, type AttemptResult, type CaseResult } from './case-result.js';
import { estimateSuiteCost, type CostEstimate, type EstimateOptions } from './estimate-cost.js';
import { EvalReport } from './eval-report.js';
import type { EvalWait } from './attempt-wait.js';
import { runAttempt } from './run-case.js';
import type { EvalCase, Grader, SnapshotChecker, SuiteDefinition } from './types.js';

// A function, so a check after an await is not narrowed by an earlier one.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * The agent of one case, for suites whose cases need their own agent (the CLI's per-case
 * cassettes: each case records to, or replays from, its own file). Called once per case; its
 * attempts share the agent. A factory that throws makes that case an `error`, not the suite.
 */
export type AgentFactory = (evalCase: EvalCase) => Agent | Promise<Agent>;

/** Options of an {@link EvalSuite}. */
export interface EvalSuiteOptions {
  /** The suite's name in events and reports. Default: the definition's description, else `eval`. */
  name?: string;
  /** Cases (runs) at once. Default 4 (or the definition's `evaluateOptions`). */
  maxConcurrency?: number;
  /** Runs per case; pass^k: a case passes only when all k pass. Default 1. */
  repeat?: number;
  /** Per-run timeout in ms; 0 = none. */
  timeoutMs?: number;
  /**
   * The judge: a Grader used for every judge assertion, or a function resolving a `provider:model`
   * spec (from an assertion, a case or the suite; `undefined` when none was written) to one.
   */
  grader?: Grader | ((spec: string | undefined) => Grader | undefined | Promise<Grader | undefined>);
  /** Stops the suite: runs in flight are cancelled, cases not started are reported as skipped. */
  signal?: AbortSignal;
  /** Receive `eval-start`, `eval-case-end` and `eval-end`. */
  observers?: readonly AgentObserver[];
  /** Directory `file://` references in assertions resolve against. Default: the suite file's, else cwd. */
  baseDir?: string;
  /** Keep each run's trace in the report (default true). */
  keepTraces?: boolean;
  /**
   * Where `snapshot` assertions compare: a SnapshotSession over a SnapshotStore (it writes missing
   * snapshots, and rewrites changed ones in update mode). Without it a `snapshot` assertion fails.
   */
  snapshots?: SnapshotChecker;
  /** Called when an attempt starts, changes what it waits on, and ends, and when a case ends (CLI progress). */
  onProgress?: (progress: EvalProgress) => void;
  /** Clock (ms). Default `Date.now`. */
  now?: () => number;
}

/** A progress notice. */
export type EvalProgress =
  | { type: 'attempt-start'; caseId: string; attempt: number; worker: number }
  | { type: 'attempt-end'; caseId: string; attempt: number; worker: number; result: AttemptResult }
  /** What a running attempt now waits on (the model, a tool, a retry backoff, its checks). */
  | { type: 'attempt-wait'; caseId: string; attempt: number; worker: number; wait: EvalWait }
  | { type: 'case-end'; result: CaseResult; done: number; total: number };

/**
 * Runs test cases against an agent: a pool of `maxConcurrency` runs, each case `repeat` times
 * (pass^k, flaky cases listed), a timeout per run, cancellation, and `eval-start` /
 * `eval-case-end` / `eval-end` events. Every run's trace is kept in the report.
 *
 * @example
 * const report = await new EvalSuite(agent, (await loadSuite('suite.yaml')).cases).run();
 * console.log(report.accuracy, report.toMarkdown());
 */
export class EvalSuite {
  readonly #agent: Agent | AgentFactory;
  readonly #agents = new Map<EvalCase, Promise<Agent>>();
  readonly #cases: readonly EvalCase[];
  readonly #options: EvalSuiteOptions;
  readonly #name: string;
  readonly #settings: { maxConcurrency: number; repeat: number; timeoutMs: number };
  readonly #baseDir: string;
  readonly #source: string | undefined;

  constructor(agent: Agent | AgentFactory, cases: readonly EvalCase[] | SuiteDefinition, options: EvalSuiteOptions = {}) {
    const definition = Array.isArray(cases) ? undefined : (cases as SuiteDefinition);
    this.#agent = agent;
    this.#cases = definition?.cases ?? (cases as readonly EvalCase[]);
    this.#options = options;
    this.#name = options.name ?? definition?.description ?? 'eval';
    this.#settings = {
      maxConcurrency: options.maxConcurrency ?? definition?.options.maxConcurrency ?? 4,
      repeat: options.repeat ?? definition?.options.repeat ?? 1,
      timeoutMs: options.timeoutMs ?? definition?.options.timeoutMs ?? 0,
    };
    for (const [key, value] of Object.entries(this.#settings)) {
      const min = key === 'timeoutMs' ? 0 : 1;
      if (!Number.isInteger(value) || value < min) throw new RangeError(`EvalSuite: ${key} must be an integer ≥ ${min} (got ${value})`);
    }
    this.#source = definition?.source;
    this.#baseDir = options.baseDir ?? (definition === undefined ? process.cwd() : definition.source.replace(/[\\/][^\\/]*$/, ''));
  }

  /** The cases this suite runs. */
  get cases(): readonly EvalCase[] {
    return this.#cases;
  }

  /** What the run would cost before running it: calls, tokens and USD at the agent model's list price. */
  estimateCost(options: EstimateOptions = {}): CostEstimate {
    if (typeof this.#agent === 'function') throw new TypeError('EvalSuite.estimateCost needs an agent, not a per-case agent factory');
    return estimateSuiteCost(this.#agent, this.#cases, this.#settings.repeat, options);
  }

  /** Runs every case and returns the report. */
  async run(): Promise<EvalReport> {
    const now = this.#options.now ?? Date.now;
    const bus = new EventBus({ observers: this.#options.observers ?? [] });
    const runId = generateId('eval');
    const emit = async <T extends 'eval-start' | 'eval-case-end' | 'eval-end'>(type: T, payload: AgentEventPayloads[T]): Promise<void> => {
      const pending = bus.emit({ type, runId, timestamp: now(), ...payload } as AgentEvent);
      if (pending) await pending;
    };
    const started = now();
    const { repeat, maxConcurrency, timeoutMs } = this.#settings;
    const signal = this.#options.signal;
    const graderFor = this.#graderResolver();
    const keepTrace = this.#options.keepTraces ?? true;
    await emit('eval-start', { suite: this.#name, cases: this.#cases.length });

    const attempts = new Map<number, AttemptResult[]>();
    const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(this.#cases.length);
    let done = 0;
    const finishCase = async (index: number, caseResult: CaseResult): Promise<void> => {
      results[index] = caseResult;
      done++;
      this.#options.onProgress?.({ type: 'case-end', result: caseResult, done, total: this.#cases.length });
      await emit('eval-case-end', { suite: this.#name, caseId: caseResult.id, passed: caseResult.verdict === 'pass', score: caseResult.score, durationMs: caseResult.attempts.reduce((s, a) => s + a.latencyMs, 0), verdict: caseResult.verdict });
    };
    const units: { index: number; attempt: number }[] = [];
    for (const [index, evalCase] of this.#cases.entries()) {
      if (evalCase.skip === true) continue;
      for (let attempt = 0; attempt < repeat; attempt++) units.push({ index, attempt });
    }
    for (const [index, evalCase] of this.#cases.entries()) {
      if (evalCase.skip === true) await finishCase(index, this.#caseResult(evalCase, [], 'skip: true in the suite'));
    }
    let next = 0;
    const worker = async (workerId: number): Promise<void> => {
      for (;;) {
        if (signal?.aborted === true) return;
        const unit = units[next++];
        if (unit === undefined) return;
        const evalCase = this.#cases[unit.index] as EvalCase;
        this.#options.onProgress?.({ type: 'attempt-start', caseId: evalCase.id, attempt: unit.attempt + 1, worker: workerId });
        const snapshots = this.#options.snapshots;
        const onProgress = this.#options.onProgress;
        const onWait = onProgress === undefined ? undefined : (wait: EvalWait): void => onProgress({ type: 'attempt-wait', caseId: evalCase.id, attempt: unit.attempt + 1, worker: workerId, wait });
        const result = await runAttempt(evalCase, {
          agent: this.#agentOf(evalCase),
          graderFor,
          baseDir: this.#baseDir,
          timeoutMs,
          signal,
          now,
          keepTrace,
          ...(snapshots === undefined ? {} : { snapshots }),
          ...(onWait === undefined ? {} : { onWait }),
        });
        if (isAborted(signal) && result.verdict === 'error') return;
        this.#options.onProgress?.({ type: 'attempt-end', caseId: evalCase.id, attempt: unit.attempt + 1, worker: workerId, result });
        const list = attempts.get(unit.index) ?? [];
        list.push(result);
        attempts.set(unit.index, list);
        if (list.length === repeat) await finishCase(unit.index, this.#caseResult(evalCase, list));
      }
    };
    await Promise.all(Array.from({ length: Math.min(maxConcurrency, Math.max(1, units.length)) }, (_, i) => worker(i + 1)));
    const cancelled = isAborted(signal);
    for (const [index, evalCase] of this.#cases.entries()) {
      if (results[index] === undefined) results[index] = this.#caseResult(evalCase, [], 'cancelled before it finished');
    }
    const report = new EvalReport({
      suite: this.#name,
      ...(this.#source === undefined ? {} : { source: this.#source }),
      startedAt: new Date(started).toISOString(),
      durationMs: now() - started,
      repeat,
      cancelled,
      cases: results as CaseResult[],
    });
    await emit('eval-end', { suite: this.#name, passed: report.counts.pass, failed: report.counts.fail + report.counts.error, durationMs: report.durationMs });
    return report;
  }

  /** The agent of a case: the suite's, or the factory's (called once per case, attempts share it). */
  #agentOf(evalCase: EvalCase): Agent | Promise<Agent> {
    const agent = this.#agent;
    if (typeof agent !== 'function') return agent;
    let got = this.#agents.get(evalCase);
    if (got === undefined) {
      got = Promise.resolve().then(() => agent(evalCase));
      got.catch(() => undefined);
      this.#agents.set(evalCase, got);
    }
    return got;
  }

  #caseResult(evalCase: EvalCase, attempts: AttemptResult[], skipReason?: string): CaseResult {
    const combined = combineAttempts(attempts);
    const result: CaseResult = { id: evalCase.id, input: evalCase.input, tags: [...evalCase.tags], weight: evalCase.weight, metadata: { ...evalCase.metadata }, ...combined, attempts };
    if (evalCase.description !== undefined) result.description = evalCase.description;
    if (skipReason !== undefined) result.skipReason = skipReason;
    return result;
  }

  #graderResolver(): (spec: string | undefined) => Promise<Grader | undefined> {
    const grader = this.#options.grader;
    if (grader === undefined) return () => Promise.resolve(undefined);
    if (typeof grader !== 'function') return () => Promise.resolve(grader);
    const cache = new Map<string, Promise<Grader | undefined>>();
    return (spec) => {
      const key = spec ?? '';
      let got = cache.get(key);
      if (got === undefined) {
        got = Promise.resolve(grader(spec));
        cache.set(key, got);
      }
      return got;
    };
  }
}
