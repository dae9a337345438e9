import type { CaseResult } from '../case-result.js';
import type { ReportView } from './report-view.js';
import { failureDetail } from './failure-detail.js';
import { xmlEscape } from './xml.js';

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function caseBody(c: CaseResult): string {
  const detail = xmlEscape(failureDetail(c));
  if (c.verdict === 'skip') return `<skipped message="${xmlEscape(c.skipReason ?? 'skipped')}"/>`;
  if (c.verdict === 'error') return `<error message="${detail}" type="runtime-error">${detail}</error>`;
  if (c.verdict === 'fail') {
    const run = c.attempts.find((a) => a.verdict !== 'pass');
    const lines = (run?.assertions ?? []).filter((a) => !a.pass).map((a) => `${a.type}: ${a.reason}${a.expected === undefined ? '' : `\n  expected: ${a.expected}`}${a.actual === undefined ? '' : `\n  actual: ${a.actual}`}`);
    const type = (run?.assertions ?? []).find((a) => !a.pass)?.type ?? 'assertion';
    return `<failure message="${detail}" type="${xmlEscape(type)}">${xmlEscape(lines.join('\n'))}</failure>`;
  }
  return '';
}

/**
 * JUnit XML (the Ant/Surefire dialect CI servers read): one `<testsuite>` with one `<testcase>`
 * per case; failed assertions are `<failure>`, runtime errors (provider failures, timeouts) are
 * `<error>`, kept apart so a CI dashboard tells a regression from an outage.
 */
export function reportToJUnit(report: ReportView): string {
  const s = report.summary;
  const name = xmlEscape(report.suite);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${s.cases}" failures="${s.counts.fail}" errors="${s.counts.error}" skipped="${s.counts.skip}" time="${seconds(report.durationMs)}">`,
    `  <testsuite name="${name}" tests="${s.cases}" failures="${s.counts.fail}" errors="${s.counts.error}" skipped="${s.counts.skip}" time="${seconds(report.durationMs)}"${report.startedAt === '' ? '' : ` timestamp="${xmlEscape(report.startedAt.replace(/\.\d+Z$/, '').replace(/Z$/, ''))}"`}>`,
    '    <properties>',
    `      <property name="accuracy" value="${s.accuracy.toFixed(4)}"/>`,
    `      <property name="repeat" value="${report.repeat}"/>`,
    `      <property name="costUsd" value="${s.costUsd.toFixed(6)}"/>`,
    '    </properties>',
  ];
  for (const c of report.cases) {
    const time = c.attempts.reduce((sum, a) => sum + a.latencyMs, 0);
    const body = caseBody(c);
    const open = `    <testcase name="${xmlEscape(c.id)}" classname="${name}" time="${seconds(time)}"`;
    out.push(body === '' ? `${open}/>` : `${open}>\n      ${body}\n    </testcase>`);
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}
