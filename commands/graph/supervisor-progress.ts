import type { CheckpointStore } from '../../lib/graph/checkpoint/types.js';
import { SUPERVISOR_KEY, type SupervisorRecord } from '../../lib/graph/supervisor/types.js';

/**
 * The text view of a supervisor run (`agentlib graph run team.yaml`, text mode): after each step's
 * checkpoint it reads the supervisor's record from the checkpointed state and prints what changed —
 * the plan (plan_and_execute) or the task ledger (magentic) when written or rewritten, the latest
 * progress ledger's judgement, and which agent is working on which task. Graphs that are not
 * supervisors print nothing here.
 */
export class SupervisorProgress {
  #last: SupervisorRecord | undefined;

  constructor(private readonly store: CheckpointStore) {}

  /** Reads checkpoint `checkpointId` and returns the lines to print (none when nothing changed). */
  async update(checkpointId: string): Promise<string[]> {
    const checkpoint = await this.store.get(checkpointId);
    const record = checkpoint?.state.data[SUPERVISOR_KEY] as SupervisorRecord | undefined;
    if (record === undefined) return [];
    const lines = supervisorLines(this.#last, record);
    this.#last = record;
    return lines;
  }
}

/** What changed between two supervisor records, as lines for the terminal. */
export function supervisorLines(before: SupervisorRecord | undefined, now: SupervisorRecord): string[] {
  const lines: string[] = [];
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  if (now.plan !== undefined && !same(before?.plan, now.plan)) {
    lines.push(before?.plan === undefined ? 'plan:' : 'new plan:');
    now.plan.forEach((s, i) => lines.push(`  ${i + 1}. ${s.agent}: ${s.task}`));
  }
  if (now.ledger !== undefined && !same(before?.ledger, now.ledger)) {
    lines.push(before?.ledger === undefined ? 'task ledger:' : 'new task ledger:');
    for (const fact of now.ledger.facts) lines.push(`  fact: ${fact}`);
    now.ledger.plan.forEach((p, i) => lines.push(`  ${i + 1}. ${p}`));
  }
  const progress = now.progress?.at(-1);
  if (progress !== undefined && (before?.progress?.length ?? 0) < (now.progress?.length ?? 0)) {
    lines.push(`progress: ${progress.requestSatisfied ? 'request satisfied' : progress.progressMade ? 'progress' : `no progress (stalls ${now.stalls})`} — ${progress.reason}`);
  }
  const turn = now.turns.at(-1);
  if (turn !== undefined && now.turns.length > (before?.turns.length ?? 0) && turn.status === 'failed') lines.push(`x ${turn.agent} failed: ${turn.error?.message ?? ''}`);
  if (now.next !== undefined && !same(before?.next, now.next)) lines.push(`→ ${now.next.agent} is working on: ${now.next.task}`);
  if (now.finish !== undefined && before?.finish === undefined) lines.push(now.finish === 'max-rounds' ? `stopped after max rounds (${now.turns.length})` : `finished after ${now.turns.length} turns`);
  return lines;
}
