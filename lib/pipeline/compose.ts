import type { Tool, ToolOutput } from '../tools/types.js';
import { PipelineError } from './pipeline-error.js';
import { Step } from './step.js';
import type { StepRun } from './step-context.js';
import { toolStep } from './to-step.js';

/** Turns the first tool's output into the second tool's arguments. */
export type ComposeMap<B> = (output: ToolOutput) => B | PromiseLike<B>;

/** The default mapping: the first tool's raw result when it is an object, else its content parsed as a JSON object. */
function defaultMap<B>(output: ToolOutput, first: string, second: string): B {
  if (typeof output.raw === 'object' && output.raw !== null && !Array.isArray(output.raw)) return output.raw as B;
  try {
    const parsed: unknown = JSON.parse(output.content);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as B;
  } catch {
    // fall through to the error
  }
  throw new PipelineError(`compose(${first}, ${second}): ${first} returned no JSON object to pass as ${second}'s arguments; give compose a map function`, { step: first });
}

/**
 * A step that runs tool `a` on its input (as `a`'s arguments) and then tool `b` on `a`'s result:
 * `a`'s object result (or its output parsed as a JSON object) is `b`'s arguments, unless `map`
 * says otherwise. Both calls are validated like a model's calls.
 */
export function compose<A extends Record<string, unknown>, B extends Record<string, unknown>>(a: Tool<A>, b: Tool<B>, map?: ComposeMap<B>): Step<A, ToolOutput> {
  const first = toolStep(a);
  const second = toolStep(b);
  return new Step<A, ToolOutput>(`compose(${a.name}, ${b.name})`, async (input, context) => {
    const run = context as StepRun;
    const output = await first.execute(input, run);
    const args = map === undefined ? defaultMap<B>(output, a.name, b.name) : await map(output);
    return second.execute(args, run);
  });
}
