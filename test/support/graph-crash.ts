// The crash trial of issue 15, shared by test/lib/graph/crash-*.test.ts (a few trials) and
// bench/graph-crash.ts (many): a child process runs a 10-node graph with a checkpoint store and is
// killed with SIGKILL after a random number of nodes; this process then continues the thread and
// checks that no node recorded in the last checkpoint ran twice (side effects are counted in a
// file), that every node ran, and that the final state equals an uninterrupted run's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AgentGraph, openCheckpointStore, type GraphState } from '../../lib/graph/index.js';
import { ensureCliBuilt } from './cli-build.js';
// @ts-expect-error -- plain JavaScript shared with the child process (no declaration file)
import { CRASH_NODES as NODES, crashGraph as buildCrashGraph } from './graph-crash-graph.mjs';

export const CRASH_NODES = NODES as string[];

/** The crash graph built on the sources. */
export function crashGraph(effects: string): AgentGraph {
  return buildCrashGraph(AgentGraph, effects) as AgentGraph;
}

/** The final state of an uninterrupted run (data and history). */
export async function referenceState(effects: string): Promise<Pick<GraphState, 'data' | 'history'>> {
  const result = await crashGraph(effects).run('go', { threadId: 'reference' });
  return { data: result.state.data, history: result.state.history };
}

/** Builds dist/ when stale: the children run the built library. */
export function prepareCrashTrials(): void {
  ensureCliBuilt();
}

/** The outcome of one trial. */
export interface CrashTrial {
  killedAfter: number;
  finishedBeforeKill: string[];
  reran: string[];
  ok: boolean;
  problems: string[];
}

/**
 * One trial: the child runs the graph on `storeUrl`, thread `threadId`, and is SIGKILLed once it
 * reported `killAfter` side effects (1–9); then the thread is continued here.
 */
export async function crashTrial(storeUrl: string, threadId: string, effects: string, killAfter: number, reference: Pick<GraphState, 'data' | 'history'>): Promise<CrashTrial> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./graph-crash-child.mjs', import.meta.url)), storeUrl, threadId, effects], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let seen = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    seen += chunk.split('\n').filter(Boolean).length;
    if (seen >= killAfter) child.kill('SIGKILL');
  });
  await exited;
  const store = await openCheckpointStore(storeUrl);
  const problems: string[] = [];
  try {
    const latest = await store.getLatest(threadId);
    const finishedBeforeKill = latest ? [...latest.state.history] : [];
    const graph = crashGraph(effects);
    const result = latest && latest.next.length > 0 ? await graph.continueThread(threadId, { checkpointStore: store }) : latest ? null : await graph.run('go', { threadId, checkpointStore: store });
    const final = result?.state ?? latest?.state;
    const counts = new Map<string, number>();
    for (const line of readFileSync(effects, 'utf8').split('\n').filter(Boolean)) counts.set(line, (counts.get(line) ?? 0) + 1);
    const reran = [...counts].filter(([, n]) => n > 1).map(([name]) => name);
    for (const name of finishedBeforeKill) if (counts.get(name) !== 1) problems.push(`${name} finished before the kill but ran ${counts.get(name) ?? 0} times`);
    for (const name of CRASH_NODES) if ((counts.get(name) ?? 0) < 1) problems.push(`${name} never ran`);
    if (reran.length > 1) problems.push(`more than one node ran twice: ${reran.join(', ')}`);
    if (JSON.stringify(final?.data) !== JSON.stringify(reference.data)) problems.push(`final data differs: ${JSON.stringify(final?.data)}`);
    if (JSON.stringify(final?.history) !== JSON.stringify(reference.history)) problems.push(`final history differs: ${JSON.stringify(final?.history)}`);
    return { killedAfter: killAfter, finishedBeforeKill, reran, ok: problems.length === 0, problems };
  } finally {
    await store.close();
  }
}
