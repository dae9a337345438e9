import Table from 'cli-table3';
import type { RegressionResult } from '../../lib/evals/compare.js';
import { percent, usd } from '../../lib/evals/report/failure-detail.js';

function signed(value: number, format: (n: number) => string): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${format(Math.abs(value))}`;
}

/** A comparison as text: the verdict changes, then the accuracy, cost and latency deltas. */
export function formatComparison(result: RegressionResult): string {
  const lines: string[] = [];
  if (result.regressions.length + result.improvements.length > 0) {
    const table = new Table({ head: ['case', 'baseline', 'now', ''], style: { head: [], border: [] } });
    for (const r of result.regressions) table.push([r.id, r.from, r.to, 'REGRESSION']);
    for (const r of result.improvements) table.push([r.id, r.from, r.to, 'improved']);
    lines.push(table.toString());
  }
  if (result.added.length > 0) lines.push(`new cases: ${result.added.join(', ')}`);
  if (result.removed.length > 0) lines.push(`cases no longer in the suite: ${result.removed.join(', ')}`);
  lines.push(
    `accuracy ${percent(result.accuracy.baseline)} → ${percent(result.accuracy.current)} (${signed(result.accuracy.delta * 100, (n) => `${n.toFixed(1)} pts`)}) · cost ${usd(result.costUsd.baseline)} → ${usd(result.costUsd.current)} · latency p50 ${Math.round(result.latencyP50Ms.baseline)} → ${Math.round(result.latencyP50Ms.current)} ms`,
    result.regressed ? `regressed: ${result.regressions.length} case(s) stopped passing${result.regressions.length === 0 ? ' (accuracy fell more than the margin)' : ''}` : 'no regression',
  );
  return `${lines.join('\n')}\n`;
}
