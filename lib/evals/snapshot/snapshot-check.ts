import { outcome, type CheckDefinition } from '../checks/check-definition.js';
import { tracedToolCalls } from '../checks/trace-view.js';
import type { CheckOutcome, SnapshotSubject } from '../types.js';

const SUBJECTS: readonly SnapshotSubject[] = ['output', 'tool-calls'];

function invalid(reason: string): CheckOutcome {
  return { ...outcome(false, reason), invalid: true };
}

/**
 * `snapshot`: the run's answer (`value: output`, the default) or its tool calls (`value:
 * tool-calls`: one `name {args}` line per call, from the trace) equal the stored snapshot.
 */
export const SNAPSHOT_CHECK: CheckDefinition = {
  type: 'snapshot',
  description: 'the output (or, with `value: tool-calls`, the tool calls) equals the stored snapshot; missing snapshots are written, `--update-snapshots` rewrites changed ones',
  kind: 'deterministic',
  negatable: false,
  validate: (a) => (a.value === undefined || SUBJECTS.includes(a.value as SnapshotSubject) ? undefined : 'takes a "value" of output or tool-calls (or none: output)'),
  run: (assertion, ctx) => {
    if (ctx.snapshots === undefined) return invalid('snapshot needs a snapshot store (EvalSuite option "snapshots"; the CLI uses __snapshots__ beside the suite)');
    const subject = (assertion.value ?? 'output') as SnapshotSubject;
    const actual = subject === 'output' ? ctx.output : tracedToolCalls(ctx.result).map((c) => `${c.name} ${JSON.stringify(c.args)}`).join('\n');
    return ctx.snapshots.check(ctx.evalCase.id, subject, actual);
  },
};
