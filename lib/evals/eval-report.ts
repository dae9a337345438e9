import { writeFile } from 'node:fs/promises';
import type { CaseResult } from './case-result.js';
import { percentile } from './percentile.js';
import { reportToHtml } from './report/html.js';
import { reportToJUnit } from './report/junit.js';
import { reportToMarkdown } from './report/markdown.js';
import type { Verdict } from './types.js';
import type { EvalSummary } from './report/report-view.js';

export type { EvalSummary } from './report/report-view.js';

/** Version of the report's JSON form. */
export const EVAL_REPORT_VERSION = 1;

/** The report's persisted JSON form (`toJSON()`; read back with `EvalReport.fromJSON`). */
export interface EvalReportJSON {
  type: 'eval-report';
  version: number;
  suite: string;
  source?: string;
  startedAt: string;
  durationMs: number;
  repeat: number;
  cancelled: boolean;
  /** Set on a shard's report (`--shard i/n`). */
  shard?: { index: number; total: number };
  cases: CaseResult[];
  /** Computed totals (informational: recomputed on load). */
  summary?: EvalSummary;
}

/** What a report is built from. */
export type EvalReportInit = Omit<EvalReportJSON, 'type' | 'version' | 'summary'>;

/**
 * The results of an eval run: per case verdicts (pass / fail / error / skip) and runs, and the
 * totals: weighted accuracy, latency percentiles, tokens, cost, flaky cases, failures by metric.
 * Renders as versioned JSON, Markdown (for `$GITHUB_STEP_SUMMARY`), one self-contained HTML file,
 * and JUnit XML (assertion failures as `<failure>`, runtime errors as `<error>`).
 */
export class EvalReport {
  readonly suite: string;
  readonly source: string | undefined;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly repeat: number;
  readonly cancelled: boolean;
  readonly shard: { index: number; total: number } | undefined;
  readonly cases: readonly CaseResult[];
  #summary: EvalSummary | undefined;

  constructor(init: EvalReportInit) {
    this.suite = init.suite;
    this.source = init.source;
    this.startedAt = init.startedAt;
    this.durationMs = init.durationMs;
    this.repeat = init.repeat;
    this.cancelled = init.cancelled;
    this.shard = init.shard;
    this.cases = init.cases;
  }

  /** Reads a report written by `toJSON()`; refuses other documents and newer versions. */
  static fromJSON(value: unknown, where = 'report'): EvalReport {
    const doc = value as Partial<EvalReportJSON> | null;
    if (typeof doc !== 'object' || doc === null || doc.type !== 'eval-report' || !Array.isArray(doc.cases)) throw new TypeError(`${where} is not an agentlib eval report (no "type": "eval-report")`);
    if (typeof doc.version !== 'number' || doc.version > EVAL_REPORT_VERSION) throw new TypeError(`${where} is eval report version ${String(doc.version)}; this agentlib reads up to version ${EVAL_REPORT_VERSION}`);
    return new EvalReport({
      suite: String(doc.suite ?? 'eval'),
      ...(typeof doc.source === 'string' ? { source: doc.source } : {}),
      startedAt: String(doc.startedAt ?? ''),
      durationMs: Number(doc.durationMs ?? 0),
      repeat: Number(doc.repeat ?? 1),
      cancelled: doc.cancelled === true,
      ...(doc.shard === undefined ? {} : { shard: doc.shard }),
      cases: doc.cases,
    });
  }

  /** The totals (computed once). */
  get summary(): EvalSummary {
    this.#summary ??= summarize(this.cases);
    return this.#summary;
  }

  get counts(): Record<Verdict, number> {
    return this.summary.counts;
  }

  get accuracy(): number {
    return this.summary.accuracy;
  }

  /** Cases with some passing and some failing runs. */
  get flaky(): readonly string[] {
    return this.summary.flaky;
  }

  /** A report of the cases carrying `tag`. */
  withTag(tag: string): EvalReport {
    return this.#with(this.cases.filter((c) => c.tags.includes(tag)));
  }

  /** A report of the cases `keep` selects. */
  filter(keep: (result: CaseResult) => boolean): EvalReport {
    return this.#with(this.cases.filter(keep));
  }

  toJSON(): EvalReportJSON {
    return {
      type: 'eval-report',
      version: EVAL_REPORT_VERSION,
      suite: this.suite,
      ...(this.source === undefined ? {} : { source: this.source }),
      startedAt: this.startedAt,
      durationMs: this.durationMs,
      repeat: this.repeat,
      cancelled: this.cancelled,
      ...(this.shard === undefined ? {} : { shard: this.shard }),
      summary: this.summary,
      cases: [...this.cases],
    };
  }

  /** GitHub-flavoured Markdown: totals, a table of failures with the failing assertion, flaky cases. */
  toMarkdown(): string {
    return reportToMarkdown(this);
  }

  /** One self-contained HTML page (inline styles and SVG charts, no script, no external request); written to `path` when given. */
  toHtml(): string;
  toHtml(path: string): Promise<string>;
  toHtml(path?: string): string | Promise<string> {
    const html = reportToHtml(this);
    return path === undefined ? html : writeFile(path, html, 'utf8').then(() => html);
  }

  /** JUnit XML: one testsuite, one testcase per case; failed assertions are `<failure>`, runtime errors `<error>`, skips `<skipped>`. */
  toJUnit(): string {
    return reportToJUnit(this);
  }

  #with(cases: readonly CaseResult[]): EvalReport {
    return new EvalReport({ suite: this.suite, ...(this.source === undefined ? {} : { source: this.source }), startedAt: this.startedAt, durationMs: this.durationMs, repeat: this.repeat, cancelled: this.cancelled, ...(this.shard === undefined ? {} : { shard: this.shard }), cases: [...cases] });
  }
}

function summarize(cases: readonly CaseResult[]): EvalSummary {
  const counts: Record<Verdict, number> = { pass: 0, fail: 0, error: 0, skip: 0 };
  let weightRun = 0;
  let weightPassed = 0;
  const latencies: number[] = [];
  const tokens = { prompt: 0, completion: 0, total: 0 };
  let costUsd = 0;
  let runs = 0;
  let runsPassed = 0;
  const failures = new Map<string, number>();
  for (const c of cases) {
    counts[c.verdict]++;
    if (c.verdict !== 'skip') {
      weightRun += c.weight;
      if (c.verdict === 'pass') weightPassed += c.weight;
    }
    for (const a of c.attempts) {
      runs++;
      if (a.verdict === 'pass') runsPassed++;
      latencies.push(a.latencyMs);
      tokens.prompt += a.promptTokens;
      tokens.completion += a.completionTokens;
      tokens.total += a.totalTokens;
      costUsd += a.costUsd;
      for (const r of a.assertions) if (!r.pass) failures.set(r.metric, (failures.get(r.metric) ?? 0) + 1);
    }
  }
  const ran = cases.length - counts.skip;
  return {
    cases: cases.length,
    counts,
    accuracy: weightRun === 0 ? 0 : weightPassed / weightRun,
    runPassRate: runs === 0 ? 0 : runsPassed / runs,
    flaky: cases.filter((c) => c.flaky).map((c) => c.id),
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), mean: latencies.length === 0 ? 0 : latencies.reduce((a, b) => a + b, 0) / latencies.length },
    tokens,
    costUsd,
    costPerCaseUsd: ran === 0 ? 0 : costUsd / ran,
    failuresByMetric: [...failures].map(([metric, n]) => ({ metric, failures: n })).sort((a, b) => b.failures - a.failures || a.metric.localeCompare(b.metric)),
  };
}
