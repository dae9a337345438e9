// promptfoo's own evaluator on the cases of bench/eval.ts: the same inputs and the same three
// deterministic assertions, answered by a custom provider that echoes the prompt with no latency.
import { evaluate } from 'promptfoo';

/** One bench case: its input and the three assertion values. */
export interface BenchCase {
  input: string;
  contains: string;
  regex: string;
  absent: string;
}

/** Runs the cases through promptfoo.evaluate; returns the passes and the wall time in ms. */
export async function runPromptfoo(cases: readonly BenchCase[], answer: (input: string) => string, maxConcurrency: number): Promise<{ passed: number; ms: number }> {
  const started = performance.now();
  const summary = await evaluate(
    {
      prompts: ['{{input}}'],
      providers: [(prompt: string) => Promise.resolve({ output: answer(prompt) })],
      tests: cases.map((c) => ({
        vars: { input: c.input },
        assert: [
          { type: 'contains' as const, value: c.contains },
          { type: 'regex' as const, value: c.regex },
          { type: 'not-icontains' as const, value: c.absent },
        ],
      })),
      writeLatestResults: false,
    },
    { maxConcurrency, showProgressBar: false, cache: false },
  );
  const ms = performance.now() - started;
  const results = (await summary.toEvaluateSummary()).results;
  return { passed: results.filter((r) => r.success).length, ms };
}
