import Table from 'cli-table3';
import type { EvalReport } from '../../lib/evals/eval-report.js';
import { failureDetail, percent, usd } from '../../lib/evals/report/failure-detail.js';

function clip(text: string, width: number): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > width ? `${one.slice(0, width - 1)}…` : one;
}

/**
 * The end-of-run summary: a table of cases × verdict (failed and errored first, with the failing
 * assertion and expected/actual), then the totals line.
 */
export function summaryTable(report: EvalReport, options: { columns?: number; all?: boolean } = {}): string {
  const width = Math.max(60, Math.min(options.columns ?? 100, 160));
  const order = { fail: 0, error: 1, skip: 2, pass: 3 } as const;
  const rows = [...report.cases].sort((a, b) => order[a.verdict] - order[b.verdict]);
  const shown = options.all === true || rows.length <= 30 ? rows : rows.filter((c) => c.verdict !== 'pass');
  const table = new Table({ head: ['case', 'verdict', 'score', 'why'], style: { head: [], border: [] }, wordWrap: true, colWidths: [Math.floor(width * 0.28), 9, 7, Math.floor(width * 0.58) - 16] });
  for (const c of shown) {
    const run = c.attempts.find((a) => a.verdict !== 'pass');
    const failed = run?.assertions.find((a) => !a.pass);
    const why = c.verdict === 'pass' ? '' : failed === undefined ? failureDetail(c) : `${failed.type}: ${failed.reason}${failed.expected === undefined ? '' : `\nexpected: ${clip(failed.expected, 200)}`}${failed.actual === undefined ? '' : `\nactual: ${clip(failed.actual, 200)}`}`;
    table.push([clip(c.id, 80) + (c.flaky ? ' (flaky)' : ''), c.verdict, c.score.toFixed(2), why]);
  }
  const s = report.summary;
  const hidden = rows.length - shown.length;
  const totals = [
    `${report.suite}: ${percent(s.accuracy)} accuracy — ${s.counts.pass} passed, ${s.counts.fail} failed, ${s.counts.error} errors, ${s.counts.skip} skipped${report.repeat > 1 ? ` (pass^${report.repeat}; ${s.flaky.length} flaky)` : ''}`,
    `latency p50 ${Math.round(s.latencyMs.p50)} ms · p95 ${Math.round(s.latencyMs.p95)} ms · p99 ${Math.round(s.latencyMs.p99)} ms · ${s.tokens.total} tokens · ${usd(s.costUsd)} (${usd(s.costPerCaseUsd)} per case) · ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  return `${table.toString()}\n${hidden > 0 ? `(${hidden} passing cases not shown)\n` : ''}${totals.join('\n')}\n`;
}
