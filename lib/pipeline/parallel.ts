import { linkSignals } from '../core/linked-signal.js';
import { Step } from './step.js';
import type { StepRun } from './step-context.js';

/** The outputs of parallel steps, as a tuple in the order the steps were given. */
export type ParallelOutputs<S extends readonly Step<never, unknown>[]> = { -readonly [K in keyof S]: S[K] extends Step<never, infer O> ? O : never };

/** The input all parallel steps accept. */
type ParallelInput<S extends readonly Step<never, unknown>[]> = S extends readonly Step<infer I, unknown>[] ? I : never;

/**
 * Runs `steps` at once on copies of the same input (`structuredClone`: a branch that mutates its
 * input never affects another) and returns their outputs as a tuple, in the given order. When one
 * fails, the others are cancelled (their `context.signal` aborts) and the error is thrown.
 */
export function parallel<const S extends readonly Step<never, unknown>[]>(...steps: S): Step<ParallelInput<S>, ParallelOutputs<S>> {
  const name = `parallel(${steps.map((each) => each.name).join(', ')})`;
  return new Step<ParallelInput<S>, ParallelOutputs<S>>(name, async (input, context) => {
    const run = context as StepRun;
    const link = linkSignals([run.signal], { ownAbort: true });
    const branchRun: StepRun = { ...run, signal: link.signal };
    // The copies share results and the event counter with the parent run.
    Object.defineProperty(branchRun, 'next', { get: () => run.next, set: (value: number) => (run.next = value) });
    try {
      const outputs = await Promise.all(
        steps.map((each) =>
          (each as unknown as Step<unknown, unknown>).execute(structuredClone(input), branchRun).catch((error: unknown) => {
            link.abort(error);
            throw error;
          }),
        ),
      );
      return outputs as ParallelOutputs<S>;
    } finally {
      link.dispose();
    }
  });
}
