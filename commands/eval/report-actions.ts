import { join, resolve } from 'node:path';
import { compareReports } from '../../lib/evals/compare.js';
import { mergeReports } from '../../lib/evals/merge-reports.js';
import { failureDetail } from '../../lib/evals/report/failure-detail.js';
import { AgentTrace } from '../../lib/trace/agent-trace.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { writeJson } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { DEFAULT_TRACE_DIR, shownTracePath } from '../run/save-trace.js';
import { formatComparison } from './comparison-text.js';
import { evalExitCode } from './exit-code.js';
import { reportFormat, writeReports } from './outputs.js';
import { readReport } from './read-report.js';
import { readReportRef } from './report-ref.js';
import { stringList } from './select.js';
import { summaryTable } from './summary-table.js';

/** `agentlib eval merge a.json b.json … -o report.json -o report.junit.xml`: one report from shard reports. */
export async function mergeAction(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const files = stringList(args.files);
  if (files.length === 0) throw new UsageError('eval merge takes the shard reports to merge: agentlib eval merge a.json b.json -o report.json');
  const outputs = stringList(args.output);
  for (const output of outputs) reportFormat(output);
  const reports = await Promise.all(files.map((file) => readReport(file, cwd)));
  let merged;
  try {
    merged = mergeReports(reports);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const written = await writeReports(merged, outputs, cwd);
  const threshold = typeof args.failUnder === 'number' ? args.failUnder : undefined;
  const exitCode = evalExitCode(merged, threshold === undefined ? {} : { threshold });
  if (args.json === true) writeJson(io, { exitCode, report: merged.toJSON() });
  else io.stdout.write(summaryTable(merged, { columns: io.stdout.columns ?? 100 }));
  for (const path of written) io.stderr.write(`wrote ${path}\n`);
  return exitCode;
}

/** `agentlib eval compare baseline.json current.json`: regressions, improvements, deltas; exit 1 on a regression. */
export async function compareAction(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const files = stringList(args.files);
  if (files.length !== 2) throw new UsageError(`eval compare takes two reports, the baseline then the current one (got ${files.length})`);
  const baseline = await readReportRef(files[0] as string, cwd, { flag: 'eval compare' });
  const current = await readReportRef(files[1] as string, cwd, { flag: 'eval compare' });
  const margin = typeof args.margin === 'number' ? args.margin : 0;
  const result = compareReports(baseline, current, { margin });
  if (args.json === true) writeJson(io, { comparison: result });
  else io.stdout.write(formatComparison(result));
  return result.regressed ? ExitCode.EVAL_FAILED : ExitCode.OK;
}

/**
 * `agentlib eval view report.json`: the summary, failed cases first; with `--case <id>` that case in
 * full (every run, every assertion) and its runs' traces saved under .agentlib/traces for `agentlib trace view`.
 */
export async function viewAction(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const files = stringList(args.files);
  if (files.length !== 1) throw new UsageError(`eval view takes one report (got ${files.length})`);
  const report = await readReportRef(files[0] as string, cwd, { flag: 'eval view' });
  const caseId = typeof args.case === 'string' && args.case !== '' ? args.case : undefined;
  if (caseId === undefined) {
    if (args.json === true) writeJson(io, { report: report.toJSON() });
    else io.stdout.write(summaryTable(report, { columns: io.stdout.columns ?? 100, all: true }));
    return ExitCode.OK;
  }
  const found = report.cases.find((c) => c.id === caseId);
  if (found === undefined) throw new UsageError(`no case "${caseId}" in ${files[0] as string}`);
  const lines = [`${found.id}: ${found.verdict}${found.flaky ? ' (flaky)' : ''}, score ${found.score.toFixed(2)}`, `input: ${found.input}`];
  if (found.verdict !== 'pass') lines.push(`why: ${failureDetail(found)}`);
  for (const [i, run] of found.attempts.entries()) {
    lines.push('', `run ${i + 1}: ${run.verdict} · ${Math.round(run.latencyMs)} ms · ${run.totalTokens} tokens · tools: ${run.toolCalls.join(', ') || 'none'}`, `output: ${run.output}`);
    if (run.error !== undefined) lines.push(`error: ${run.error}`);
    for (const a of run.assertions) lines.push(`  ${a.pass ? '✓' : '✗'} ${a.type}: ${a.reason}${a.expected === undefined ? '' : ` (expected ${a.expected}${a.actual === undefined ? '' : `, actual ${a.actual}`})`}`);
    if (run.trace !== undefined) {
      const trace = AgentTrace.fromJSON(run.trace);
      const path = resolve(cwd, join(DEFAULT_TRACE_DIR, `${trace.runId}.jsonl`));
      await trace.toJSONL(path);
      lines.push(`  trace: agentlib trace view ${shownTracePath(path, cwd)}`);
    }
  }
  if (args.json === true) writeJson(io, { case: found });
  else io.stdout.write(`${lines.join('\n')}\n`);
  return ExitCode.OK;
}
