import { EvalReport } from './eval-report.js';

/**
 * Combines shard reports (`--shard i/n`) into one: cases in shard order, the earliest start, the
 * longest duration (shards run side by side). Refuses reports of different suites or repeat
 * counts and a case id seen twice.
 */
export function mergeReports(reports: readonly EvalReport[]): EvalReport {
  const first = reports[0];
  if (first === undefined) throw new RangeError('mergeReports needs at least one report');
  const seen = new Set<string>();
  for (const report of reports) {
    if (report.suite !== first.suite) throw new RangeError(`cannot merge reports of different suites ("${first.suite}" and "${report.suite}")`);
    if (report.repeat !== first.repeat) throw new RangeError(`cannot merge reports with different repeat counts (${first.repeat} and ${report.repeat})`);
    for (const c of report.cases) {
      if (seen.has(c.id)) throw new RangeError(`case "${c.id}" is in more than one report (the same shard twice?)`);
      seen.add(c.id);
    }
  }
  const ordered = [...reports].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  return new EvalReport({
    suite: first.suite,
    ...(first.source === undefined ? {} : { source: first.source }),
    startedAt: ordered.map((r) => r.startedAt).sort()[0] ?? first.startedAt,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
    repeat: first.repeat,
    cancelled: reports.some((r) => r.cancelled),
    cases: ordered.flatMap((r) => [...r.cases]),
  });
}
