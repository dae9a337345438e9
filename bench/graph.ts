// Per-step overhead of a 10-node linear graph of trivial function nodes: agentlib's AgentGraph in
// memory (no checkpoint store) and with a SQLite checkpoint after every step, against LangGraph.js
// StateGraph with MemorySaver and with SqliteSaver (@langchain/langgraph-checkpoint-sqlite, from
// bench/node_modules), on the same workload in this one script. Each sample runs the graph `runs`
// times on a fresh thread; the per-step time is the median sample / (runs × 10).
//   npm run bench:graph          (node --import tsx bench/graph.ts [--samples 9] [--runs 50] [--check])
// Targets: ≤ 0.3 ms per step with SQLite checkpoints; ≥ 3× faster than LangGraph.js in both modes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Annotation, END as LG_END, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { AgentGraph } from '../lib/graph/agent-graph.js';
import { SQLiteCheckpointStore } from '../lib/graph/checkpoint/sqlite-store.js';
import { closeAllStorage } from '../lib/storage/connection-registry.js';

const { values: args } = parseArgs({
  options: {
    samples: { type: 'string', default: '9' },
    runs: { type: 'string', default: '50' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/graph.json' },
  },
});
const SAMPLES = Number(args.samples);
const RUNS = Number(args.runs);
const NODES = 10;
const names = Array.from({ length: NODES }, (_, i) => `n${i}`);

const dir = mkdtempSync(join(tmpdir(), 'agentlib-bench-graph-'));

function agentlibGraph(): AgentGraph {
  const graph = new AgentGraph({ name: 'bench' });
  names.forEach((name, i) => graph.addNode(name, (s) => ({ data: { count: ((s.data.count as number | undefined) ?? 0) + 1 } }), i + 1 < NODES ? { next: names[i + 1] as string } : {}));
  return graph.setEntry('n0');
}

const State = Annotation.Root({ count: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }) });
function langGraph(checkpointer: MemorySaver | SqliteSaver): { invoke: (input: unknown, config: unknown) => Promise<unknown> } {
  const builder = new StateGraph(State) as unknown as {
    addNode: (name: string, fn: (s: { count: number }) => { count: number }) => unknown;
    addEdge: (a: string, b: string) => unknown;
    compile: (o: unknown) => { invoke: (input: unknown, config: unknown) => Promise<unknown> };
  };
  for (const name of names) builder.addNode(name, (s) => ({ count: s.count + 1 }));
  builder.addEdge(START, 'n0');
  for (let i = 1; i < NODES; i++) builder.addEdge(names[i - 1] as string, names[i] as string);
  builder.addEdge(names[NODES - 1] as string, LG_END);
  return builder.compile({ checkpointer });
}

type Workload = { name: string; run: (thread: string) => Promise<unknown> };
let thread = 0;
const graph = agentlibGraph();
const sqliteStore = new SQLiteCheckpointStore(join(dir, 'agentlib.db'));
const memoryLg = langGraph(new MemorySaver());
const sqliteLg = langGraph(SqliteSaver.fromConnString(join(dir, 'langgraph.db')));
const workloads: Workload[] = [
  { name: 'agentlib memory', run: (t) => graph.run(undefined, { threadId: t }) },
  { name: 'langgraph MemorySaver', run: (t) => memoryLg.invoke({ count: 0 }, { configurable: { thread_id: t } }) },
  { name: 'agentlib sqlite', run: (t) => graph.run(undefined, { threadId: t, checkpointStore: sqliteStore }) },
  { name: 'langgraph SqliteSaver', run: (t) => sqliteLg.invoke({ count: 0 }, { configurable: { thread_id: t } }) },
];

async function sampleMs(w: Workload): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < RUNS; i++) await w.run(`t${++thread}`);
  return (performance.now() - start) / (RUNS * NODES);
}

for (const w of workloads) for (let i = 0; i < 3; i++) await sampleMs(w); // warm up
const samples = new Map<string, number[]>(workloads.map((w) => [w.name, []]));
for (let s = 0; s < SAMPLES; s++) for (const w of workloads) samples.get(w.name)?.push(await sampleMs(w)); // interleaved
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const perStep = Object.fromEntries([...samples].map(([k, v]) => [k, median(v)]));
const ratioMemory = (perStep['langgraph MemorySaver'] as number) / (perStep['agentlib memory'] as number);
const ratioSqlite = (perStep['langgraph SqliteSaver'] as number) / (perStep['agentlib sqlite'] as number);
for (const [name, ms] of Object.entries(perStep)) console.log(`${name.padEnd(24)} ${(ms * 1000).toFixed(1).padStart(8)} µs/step`);
console.log(`in memory: agentlib is ${ratioMemory.toFixed(1)}× faster than LangGraph.js (target ≥ 3×)`);
console.log(`sqlite:    agentlib is ${ratioSqlite.toFixed(1)}× faster than LangGraph.js (target ≥ 3×); ${((perStep['agentlib sqlite'] as number) * 1000).toFixed(0)} µs/step (target ≤ 300)`);
mkdirSync(dirname(args.json), { recursive: true });
writeFileSync(args.json, `${JSON.stringify({ samples: SAMPLES, runs: RUNS, nodes: NODES, perStepMs: perStep, ratioMemory, ratioSqlite }, null, 2)}\n`);
await sqliteStore.close();
await closeAllStorage();
rmSync(dir, { recursive: true, force: true });
const ok = (perStep['agentlib sqlite'] as number) <= 0.3 && ratioMemory >= 3 && ratioSqlite >= 3;
if (args.check && !ok) process.exitCode = 1;
