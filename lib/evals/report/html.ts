import type { CaseResult } from '../case-result.js';
import type { ReportView } from './report-view.js';
import { failureDetail, percent, usd } from './failure-detail.js';
import { xmlEscape as esc } from './xml.js';

const COLORS = { pass: '#2e7d32', fail: '#c62828', error: '#ef6c00', skip: '#9e9e9e' } as const;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1b1b;background:#fafafa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.muted{color:#666}.cards{display:flex;gap:12px;flex-wrap:wrap;margin:16px 0}
.card{background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px 14px;min-width:110px}
.card b{display:block;font-size:20px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e5e5e5;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f0f0f0;font-weight:600}.v{font-weight:600;text-transform:uppercase;font-size:12px}
.pass{color:${COLORS.pass}}.fail{color:${COLORS.fail}}.error{color:${COLORS.error}}.skip{color:${COLORS.skip}}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:8px;border-radius:4px;margin:4px 0}
details summary{cursor:pointer}svg text{font:11px system-ui,sans-serif;fill:#333}
`;

/** A horizontal stacked bar of verdict counts. */
function verdictBar(report: ReportView): string {
  const counts = report.summary.counts;
  const total = Math.max(1, report.summary.cases);
  let x = 0;
  const parts = (['pass', 'fail', 'error', 'skip'] as const).map((v) => {
    const w = (counts[v] / total) * 600;
    const rect = counts[v] === 0 ? '' : `<rect x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="22" fill="${COLORS[v]}"><title>${v}: ${counts[v]}</title></rect>`;
    x += w;
    return rect;
  });
  const legend = (['pass', 'fail', 'error', 'skip'] as const).map((v, i) => `<rect x="${i * 110}" y="32" width="10" height="10" fill="${COLORS[v]}"/><text x="${i * 110 + 14}" y="41">${v} ${counts[v]}</text>`).join('');
  return `<svg role="img" aria-label="verdicts" width="600" height="48" viewBox="0 0 600 48">${parts.join('')}${legend}</svg>`;
}

/** A histogram of run latencies in 10 buckets. */
function latencyHistogram(report: ReportView): string {
  const values = report.cases.flatMap((c) => c.attempts.map((a) => a.latencyMs));
  if (values.length === 0) return '<p class="muted">No runs.</p>';
  const max = Math.max(...values, 1);
  const buckets = new Array<number>(10).fill(0);
  for (const v of values) buckets[Math.min(9, Math.floor((v / max) * 10))]! += 1;
  const top = Math.max(...buckets, 1);
  const bars = buckets
    .map((n, i) => {
      const h = (n / top) * 100;
      return `<rect x="${i * 60 + 2}" y="${(110 - h).toFixed(1)}" width="56" height="${h.toFixed(1)}" fill="#5c6bc0"><title>${Math.round((i * max) / 10)}–${Math.round(((i + 1) * max) / 10)} ms: ${n}</title></rect><text x="${i * 60 + 4}" y="124">${Math.round(((i + 1) * max) / 10)}</text>`;
    })
    .join('');
  return `<svg role="img" aria-label="latency histogram (ms)" width="600" height="130" viewBox="0 0 600 130">${bars}</svg>`;
}

function caseRow(c: CaseResult): string {
  const run = c.attempts.find((a) => a.verdict !== 'pass') ?? c.attempts[0];
  const assertions = (run?.assertions ?? []).map((a) => `<tr><td class="v ${a.pass ? 'pass' : 'fail'}">${a.pass ? 'pass' : 'fail'}</td><td>${esc(a.type)}</td><td>${esc(a.reason)}${a.expected === undefined ? '' : `<br><span class="muted">expected</span> ${esc(a.expected)}`}${a.actual === undefined ? '' : `<br><span class="muted">actual</span> ${esc(a.actual)}`}</td></tr>`).join('');
  const detail = `<details><summary>${esc(c.id)}${c.flaky ? ' <span class="error">(flaky)</span>' : ''}</summary><p><b>Input</b></p><pre>${esc(c.input)}</pre><p><b>Output</b></p><pre>${esc(run?.output ?? '')}</pre>${run?.error === undefined ? '' : `<p class="error">${esc(run.error)}</p>`}${assertions === '' ? '' : `<table>${assertions}</table>`}</details>`;
  const latency = c.attempts.length === 0 ? '' : `${Math.round(c.attempts.reduce((s, a) => s + a.latencyMs, 0) / c.attempts.length)} ms`;
  return `<tr><td class="v ${c.verdict}">${c.verdict}</td><td>${detail}</td><td>${esc(c.tags.join(', '))}</td><td>${c.score.toFixed(2)}</td><td>${latency}</td><td>${esc(c.verdict === 'pass' ? '' : failureDetail(c))}</td></tr>`;
}

/**
 * The report as one self-contained HTML page: inline CSS, inline SVG charts, no script, and a
 * Content-Security-Policy that forbids loading anything, so opening it makes no request.
 */
export function reportToHtml(report: ReportView): string {
  const s = report.summary;
  const order = { fail: 0, error: 1, pass: 2, skip: 3 } as const;
  const rows = [...report.cases].sort((a, b) => order[a.verdict] - order[b.verdict]).map(caseRow).join('\n');
  const cards = [
    ['accuracy', percent(s.accuracy)],
    ['passed', String(s.counts.pass)],
    ['failed', String(s.counts.fail)],
    ['errors', String(s.counts.error)],
    ['skipped', String(s.counts.skip)],
    ['p50 / p95', `${Math.round(s.latencyMs.p50)} / ${Math.round(s.latencyMs.p95)} ms`],
    ['tokens', String(s.tokens.total)],
    ['cost', usd(s.costUsd)],
  ]
    .map(([label, value]) => `<div class="card"><span class="muted">${label}</span><b>${esc(value ?? '')}</b></div>`)
    .join('');
  const metrics = s.failuresByMetric.length === 0 ? '' : `<h2>Failed assertions by metric</h2><table><tr><th>metric</th><th>failures</th></tr>${s.failuresByMetric.map((m) => `<tr><td>${esc(m.metric)}</td><td>${m.failures}</td></tr>`).join('')}</table>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(report.suite)} — eval report</title><style>${STYLE}</style></head>
<body>
<h1>${esc(report.suite)}</h1>
<div class="muted">${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s · ${s.cases} cases${report.repeat > 1 ? ` × ${report.repeat} runs (pass^${report.repeat})` : ''}${report.cancelled ? ' · cancelled' : ''}</div>
<div class="cards">${cards}</div>
${verdictBar(report)}
<h2>Latency</h2>
${latencyHistogram(report)}
${s.flaky.length === 0 ? '' : `<h2>Flaky</h2><ul>${s.flaky.map((id) => `<li>${esc(id)}</li>`).join('')}</ul>`}
${metrics}
<h2>Cases</h2>
<table id="cases"><tr><th>verdict</th><th>case</th><th>tags</th><th>score</th><th>latency</th><th>why</th></tr>
${rows}
</table>
</body></html>
`;
}
