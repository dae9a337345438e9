// Overhead per step of a pipeline: a 10-step pipeline of trivial async functions (n => n + 1) run with
// `pipeline.run(input)`, against the same ten functions composed with plain `await` in a loop.
// The difference divided by ten is agentlib's cost per step (StepResult record, timing, the
// cancellation check, the event check with no listener). Reported as the median of samples.
//   node --import tsx bench/pipeline.ts [--runs 20000] [--samples 9] [--check]
// Target (issue 20): ≤ 2 µs per step.
// Not measured yet: the 3-agent supervisor round against @langchain/langgraph-supervisor (the
// supervisor does not exist yet).
import { parseArgs } from 'node:util';
import { pipe, step, type Step } from '../lib/pipeline/index.js';
import { median } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20000' },
    samples: { type: 'string', default: '9' },
    check: { type: 'boolean', default: false },
  },
});
const runs = Number(args.runs);
const samples = Number(args.samples);
const STEPS = 10;
const TARGET_US = 2;

const fns = Array.from({ length: STEPS }, (_, i) => Object.defineProperty(async (n: number) => n + 1, 'name', { value: `inc${i}` }));
const steps = fns.map((fn) => step(fn) as unknown as Step<unknown, unknown>);
const pipeline = pipe(...steps) as unknown as Step<number, number>;

async function plain(input: number): Promise<number> {
  let value = input;
  for (const fn of fns) value = await fn(value);
  return value;
}

async function timePlain(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < runs; i++) if ((await plain(i)) !== i + STEPS) throw new Error('wrong result');
  return ((performance.now() - started) * 1000) / runs;
}

async function timePipeline(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < runs; i++) if ((await pipeline.run(i)).output !== i + STEPS) throw new Error('wrong result');
  return ((performance.now() - started) * 1000) / runs;
}

await timePlain();
await timePipeline(); // warm-up
const plainUs: number[] = [];
const pipelineUs: number[] = [];
for (let s = 0; s < samples; s++) {
  plainUs.push(await timePlain());
  pipelineUs.push(await timePipeline());
}
const plainRun = median(plainUs);
const pipelineRun = median(pipelineUs);
const perStep = (pipelineRun - plainRun) / STEPS;
console.log(`10-step run: plain await ${plainRun.toFixed(2)} µs, pipeline.run ${pipelineRun.toFixed(2)} µs (${(pipelineRun / plainRun).toFixed(2)}×)`);
console.log(`overhead per step: ${perStep.toFixed(3)} µs (target ≤ ${TARGET_US} µs) ${perStep <= TARGET_US ? 'MET' : 'MISSED'}`);
if (args.check && perStep > TARGET_US) process.exit(1);
