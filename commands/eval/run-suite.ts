import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { compareReports, type RegressionResult } from '../../lib/evals/compare.js';
import { EvalReport } from '../../lib/evals/eval-report.js';
import { EvalSuite } from '../../lib/evals/eval-suite.js';
import { openHistoryStore } from '../../lib/evals/history/open-history-store.js';
import { loadSuite } from '../../lib/evals/load-suite.js';
import { selectCases } from '../../lib/evals/select-cases.js';
import type { BaselineStore } from '../../lib/evals/baseline/baseline-store.js';
import { checkStoreId } from '../../lib/storage/store-id.js';
import { StorageUrlError } from '../../lib/storage/errors/index.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { writeJson } from '../../cli/output.js';
import { UsageError } from '../../cli/usage-error.js';
import type { CommandArguments, CommandContext } from '../command-module.js';
import { agentRequestFrom } from '../run/agent-request.js';
import { resolveAgent, type ResolvedAgent } from '../run/resolve-agent.js';
import { caseAgents, graderCassetteInDir, isCassetteDir } from './case-cassettes.js';
import { formatComparison } from './comparison-text.js';
import { evalExitCode } from './exit-code.js';
import { graderResolver } from './grader.js';
import { reportFormat, writeReports } from './outputs.js';
import { liveProgress, plainProgress, wantsLiveView } from './progress.js';
import { isStoreRef, openBaselines, parseStoreRef, readReportRef, suiteFileName } from './report-ref.js';
import { caseFilterFrom, stringList } from './select.js';
import { finishSnapshots, snapshotSessionFor } from './snapshots.js';
import { summaryTable } from './summary-table.js';

function positiveInteger(value: unknown, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new UsageError(`${flag} takes an integer ≥ ${min} (got ${JSON.stringify(value)})`);
  return value;
}

function fraction(value: unknown, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new UsageError(`${flag} takes a number between 0 and 1 (got ${JSON.stringify(value)})`);
  return value;
}

function openHistory(url: string, cwd: string): ReturnType<typeof openHistoryStore> {
  try {
    return openHistoryStore(url, { cwd });
  } catch (error) {
    if (StorageUrlError.isInstance(error)) throw new UsageError(`--history: ${error.message}`);
    throw error;
  }
}

/** `--save-baseline url[#name]`: the store (opened now, so a bad URL fails before any case runs) and the checked name. */
async function baselineTarget(ref: string, suiteFile: string, cwd: string): Promise<{ store: BaselineStore; name: string }> {
  if (!isStoreRef(ref)) throw new UsageError(`--save-baseline takes a store URL and a name: sqlite://#main, file://baselines#main, redis://host:6379#main (got "${ref}")`);
  const { url, name: written } = parseStoreRef(ref);
  const name = written ?? suiteFileName(suiteFile);
  try {
    checkStoreId(name, 'baseline name');
  } catch (error) {
    throw new UsageError(`--save-baseline: ${(error as Error).message}`);
  }
  return { store: await openBaselines(url, cwd, '--save-baseline'), name };
}

/**
 * `agentlib eval run suite.yaml`: loads the suite and its agent (YAML with its tools, the provider
 * recorded or replayed), selects cases, runs them with progress on stderr, writes the `-o`
 * reports, prints the summary (or `--json`), compares with `--baseline`, and returns the exit code.
 */
export async function runSuite(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const cwd = io.cwd ?? process.cwd();
  const files = stringList(args.files);
  if (files.length !== 1) throw new UsageError(`eval run takes one suite file (got ${files.length})`);
  const suiteFile = files[0] as string;
  const outputs = stringList(args.output);
  for (const output of outputs) reportFormat(output);
  const failUnder = fraction(args.failUnder, '--fail-under');
  const margin = fraction(args.margin, '--margin') ?? 0;
  const jobs = positiveInteger(args.jobs, '--jobs', 1);
  const repeat = positiveInteger(args.repeat, '--repeat', 1);
  const timeoutMs = positiveInteger(args.timeoutMs, '--timeout-ms', 0);
  const filter = caseFilterFrom(args);
  const suitePath = resolve(cwd, suiteFile);
  if (!existsSync(suitePath)) throw new UsageError(`No suite file "${suiteFile}".`);
  const definition = await loadSuite(suitePath, { env: io.env });
  if (definition.agent === undefined) throw new UsageError(`${suiteFile}: the suite names no agent; add agent: path/to/agent.yaml`);
  const baseline = typeof args.baseline === 'string' && args.baseline !== '' ? await readReportRef(args.baseline, cwd, { flag: '--baseline', suiteFile }) : undefined;
  const cases = selectCases(definition.cases, filter);
  if (cases.length === 0) {
    io.stderr.write(`agentlib: no case of ${suiteFile} matched the filters (${definition.cases.length} in the suite)\n`);
    return ExitCode.NOTHING_MATCHED;
  }
  // Opened before the agent, so a bad store URL or name is a usage error (exit 2) before anything runs.
  const saveTo = typeof args.saveBaseline === 'string' && args.saveBaseline !== '' ? await baselineTarget(args.saveBaseline, suiteFile, cwd) : undefined;
  const snapshots = await snapshotSessionFor(args, definition, suiteFileName(suiteFile), io);
  const request = agentRequestFrom({ ...args, agent: definition.agent }, { cwd, env: io.env, vars: {} });
  const record = typeof args.record === 'string' && args.record !== '' ? resolve(cwd, args.record) : undefined;
  const replay = typeof args.replay === 'string' && args.replay !== '' ? resolve(cwd, args.replay) : undefined;
  // --record dir/ or --replay dir: one cassette per case (the judge's calls in dir/_grader.jsonl).
  const cassetteDir = record !== undefined && isCassetteDir(args.record as string, cwd) ? { mode: 'record' as const, dir: record } : replay !== undefined && isCassetteDir(args.replay as string, cwd) ? { mode: 'replay' as const, dir: replay } : undefined;
  if (record !== undefined && replay !== undefined) throw new UsageError('--record and --replay cannot be used together.');
  const perCase = cassetteDir === undefined ? undefined : caseAgents(request, cassetteDir.mode, cassetteDir.dir, cwd);
  const resolved = perCase === undefined ? await resolveAgent(request) : undefined;
  const graderCassette = (path: string): string => (cassetteDir === undefined ? path : graderCassetteInDir(cassetteDir.dir));
  const grader = graderResolver({
    env: io.env,
    ...(typeof args.grader === 'string' && args.grader !== '' ? { override: args.grader } : {}),
    ...(definition.grader === undefined ? {} : { suiteDefault: definition.grader }),
    ...(record === undefined ? {} : { record: graderCassette(record) }),
    ...(replay === undefined ? {} : { replay: graderCassette(replay) }),
    ...(cassetteDir === undefined ? {} : { exactPaths: true }),
  });
  // Opened before running, so a bad URL is a usage error (exit 2) before any case runs.
  const history = typeof args.history === 'string' && args.history !== '' ? openHistory(args.history, cwd) : undefined;
  const workers = jobs ?? definition.options.maxConcurrency;
  const view = args.json === true ? undefined : wantsLiveView(io) ? liveProgress(io, cases.length, workers) : plainProgress(io, cases.length);
  const suite = new EvalSuite(perCase?.agentFor ?? (resolved as ResolvedAgent).agent, { ...definition, cases }, {
    signal: context.signal,
    grader,
    ...(jobs === undefined ? {} : { maxConcurrency: jobs }),
    ...(repeat === undefined ? {} : { repeat }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(view === undefined ? {} : { onProgress: (p) => view.handle(p) }),
    ...(snapshots === undefined ? {} : { snapshots }),
  });
  let report;
  try {
    report = await suite.run();
  } finally {
    view?.stop();
  }
  const snapshotResult = snapshots === undefined ? undefined : await finishSnapshots(snapshots, io, { fullRun: cases.length === definition.cases.length && !report.cancelled, update: args.updateSnapshots === true });
  const shard = filter.shard;
  if (shard !== undefined) report = EvalReport.fromJSON({ ...report.toJSON(), shard });
  const written = await writeReports(report, outputs, cwd);
  if (history !== undefined) {
    try {
      await history.record(report);
    } finally {
      history.close();
    }
  }
  if (saveTo !== undefined) {
    try {
      if (report.cancelled) io.stderr.write(`the run was interrupted: baseline "${saveTo.name}" was not saved\n`);
      else {
        await saveTo.store.save(saveTo.name, report);
        io.stderr.write(`saved baseline "${saveTo.name}" to ${saveTo.store.where}\n`);
      }
    } finally {
      await saveTo.store.close();
    }
  }
  let comparison: RegressionResult | undefined;
  if (baseline !== undefined) comparison = compareReports(baseline, report, { margin });
  const threshold = failUnder ?? definition.threshold;
  const exitCode = evalExitCode(report, { ...(threshold === undefined ? {} : { threshold }), ...(comparison === undefined ? {} : { regressed: comparison.regressed }) });
  if (args.json === true) {
    writeJson(io, { exitCode, report: report.toJSON(), ...(comparison === undefined ? {} : { comparison }), ...(snapshots === undefined || snapshotResult === undefined ? {} : { snapshots: { ...snapshots.counts, ...snapshotResult } }) });
  } else {
    io.stdout.write(summaryTable(report, { columns: io.stdout.columns ?? 100 }));
    if (comparison !== undefined) io.stdout.write(formatComparison(comparison));
    for (const path of written) io.stderr.write(`wrote ${path}\n`);
    if (threshold !== undefined) io.stderr.write(`accuracy ${(report.accuracy * 100).toFixed(1)}% ${exitCode === ExitCode.OK ? '≥' : '<'} threshold ${(threshold * 100).toFixed(1)}%\n`);
  }
  const replays = perCase?.replays ?? (resolved?.replay === undefined ? [] : [resolved.replay]);
  const unused = replays.reduce((sum, r) => sum + r.unused, 0);
  if (unused > 0 && cases.length === definition.cases.length && !report.cancelled && (repeat ?? 1) === 1) {
    io.stderr.write(`warning: ${unused} recorded provider call(s) in the cassette${perCase === undefined ? '' : 's'} were not used\n`);
  }
  if (resolved?.recorder !== undefined) io.stderr.write(`recorded ${resolved.recorder.recorded} provider call(s) to ${resolved.recorder.path}\n`);
  if (perCase !== undefined && cassetteDir?.mode === 'record') io.stderr.write(`recorded ${perCase.recorders.reduce((sum, r) => sum + r.recorded, 0)} provider call(s) to ${perCase.recorders.length} cassette(s) in ${cassetteDir.dir}\n`);
  return exitCode;
}
