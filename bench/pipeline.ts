// Overhead per step of a pipeline: a 10-step pipeline of trivial async functions (n => n + 1) run with
// `pipeline.run(input)`, against the same ten functions composed with plain `await` in a loop.
// The difference divided by ten is agentlib's cost per step (StepResult record, timing, the
// cancellation check, the event check with no listener). Reported as the median of samples.
//   node --import tsx bench/pipeline.ts [--runs 20000] [--samples 9] [--check]
// Target (issue 20): ≤ 2 µs per step.
// Second half: one 3-agent supervisor round on zero-latency scripted models — the supervisor's
// model hands off to agents a, b, c in turn, each answers once, then it answers — with agentlib's
// SupervisorAgent (strategy dynamic: 4 router calls + 3 agent calls) against LangGraph.js's
// createSupervisor (@langchain/langgraph-supervisor, from bench/node_modules; 4 supervisor calls
// with handoff tools + 3 createReactAgent calls): the same 7 model calls per round. Median ms per round.
//   npm run bench:pipeline   (node --import tsx bench/pipeline.ts [--rounds 200])
import { parseArgs } from 'node:util';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createSupervisor } from '@langchain/langgraph-supervisor';
import { Agent } from '../lib/agent/agent.js';
import { SupervisorAgent } from '../lib/graph/index.js';
import { pipe, step, type Step } from '../lib/pipeline/index.js';
import { ScriptedProvider } from '../lib/providers/scripted.js';
import { median } from './lib/measure.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '20000' },
    samples: { type: 'string', default: '9' },
    check: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '200' },
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

// ---- supervisor round ------------------------------------------------------------------------

const rounds = Number(args.rounds);
const NAMES = ['a', 'b', 'c'] as const;

/** A LangChain chat model that hands out scripted messages in a loop, with no latency. */
class ScriptedChat extends BaseChatModel {
  #i = 0;
  readonly #replies: (() => AIMessage)[];
  constructor(replies: (() => AIMessage)[]) {
    super({});
    this.#replies = replies;
  }
  _llmType(): string {
    return 'scripted';
  }
  // createReactAgent / createSupervisor bind their tools; the script already knows what to call.
  override bindTools(): this {
    return this;
  }
  async _generate(_messages: BaseMessage[]): Promise<ChatResult> {
    const message = (this.#replies[this.#i++ % this.#replies.length] as () => AIMessage)();
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

let callIds = 0;
const handoff = (name: string) => (): AIMessage => new AIMessage({ content: '', tool_calls: [{ name: `transfer_to_${name}`, args: {}, id: `call_${++callIds}`, type: 'tool_call' }] });
const lgSupervisor = createSupervisor({
  agents: NAMES.map((name) => createReactAgent({ llm: new ScriptedChat([() => new AIMessage(`result from ${name}`)]), tools: [], name })),
  llm: new ScriptedChat([...NAMES.map(handoff), () => new AIMessage('all done')]),
}).compile();

const route = (next: string): { text: string } => ({ text: JSON.stringify(next === 'FINISH' ? { next, answer: 'all done' } : { next, task: `do part ${next}` }) });
const ours = new SupervisorAgent({
  agents: NAMES.map((name) => new Agent({ name, provider: new ScriptedProvider({ replies: [`result from ${name}`], loop: true, record: false }) })),
  provider: new ScriptedProvider({ replies: [...NAMES.map(route), route('FINISH')], loop: true, record: false }),
  strategy: 'dynamic',
});

async function lgRound(): Promise<void> {
  const out = (await lgSupervisor.invoke({ messages: [{ role: 'user', content: 'do the three parts' }] })) as { messages: BaseMessage[] };
  if (out.messages.at(-1)?.content !== 'all done') throw new Error('langgraph: unexpected answer');
}
async function ourRound(): Promise<void> {
  const result = await ours.run('do the three parts');
  if (result.content !== 'all done' || result.turns.length !== 3) throw new Error('agentlib: unexpected answer');
}

async function msPerRound(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await run();
  return (performance.now() - started) / rounds;
}

for (let i = 0; i < 20; i++) {
  await lgRound();
  await ourRound();
}
const lgMs: number[] = [];
const ourMs: number[] = [];
for (let s = 0; s < samples; s++) {
  lgMs.push(await msPerRound(lgRound));
  ourMs.push(await msPerRound(ourRound));
}
const lg = median(lgMs);
const mine = median(ourMs);
console.log(`3-agent supervisor round (7 model calls): agentlib SupervisorAgent ${mine.toFixed(3)} ms, LangGraph.js createSupervisor ${lg.toFixed(3)} ms (agentlib ${(lg / mine).toFixed(2)}× faster)`);
