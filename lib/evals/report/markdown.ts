import type { ReportView } from './report-view.js';
import { failureDetail, percent, usd } from './failure-detail.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ').slice(0, 300);
}

/** The report as GitHub-flavoured Markdown (for `$GITHUB_STEP_SUMMARY` or a PR comment). */
export function reportToMarkdown(report: ReportView): string {
  const s = report.summary;
  const { pass, fail, error, skip } = s.counts;
  const icon = fail + error === 0 ? '✅' : '❌';
  const lines = [
    `## ${icon} ${report.suite}`,
    '',
    `**${percent(s.accuracy)}** accuracy · ${pass} passed · ${fail} failed · ${error} errors · ${skip} skipped${report.repeat > 1 ? ` · pass^${report.repeat} (run pass rate ${percent(s.runPassRate)})` : ''}${report.cancelled ? ' · **cancelled**' : ''}`,
    '',
    '| latency p50 | p95 | p99 | tokens | cost | cost / case |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${Math.round(s.latencyMs.p50)} ms | ${Math.round(s.latencyMs.p95)} ms | ${Math.round(s.latencyMs.p99)} ms | ${s.tokens.total} | ${usd(s.costUsd)} | ${usd(s.costPerCaseUsd)} |`,
  ];
  const bad = report.cases.filter((c) => c.verdict === 'fail' || c.verdict === 'error');
  if (bad.length > 0) {
    lines.push('', '### Failures', '', '| case | verdict | why |', '|---|---|---|');
    for (const c of bad) lines.push(`| ${cell(c.id)} | ${c.verdict} | ${cell(failureDetail(c))} |`);
  }
  if (s.failuresByMetric.length > 0) {
    lines.push('', '### Failed assertions by metric', '', '| metric | failures |', '|---|---:|');
    for (const m of s.failuresByMetric) lines.push(`| ${cell(m.metric)} | ${m.failures} |`);
  }
  if (s.flaky.length > 0) lines.push('', `### Flaky (passed some runs, not all ${report.repeat})`, '', ...s.flaky.map((id) => `- ${cell(id)}`));
  return `${lines.join('\n')}\n`;
}
