import { Agent, runStreamed } from '../agent/agent.js';
import { RunAborter } from '../agent/run-aborter.js';
import type { RunOptions } from '../agent/types.js';
import type { Tool, ToolOutput } from '../tools/types.js';
import type { StepRun } from './step-context.js';
import { Step, type StepFn } from './step.js';

/** What `step()` accepts as an agent: anything with a name and `run(prompt, options)` returning `{ content }`. */
export interface AgentLike {
  readonly name: string;
  run(input: string, options?: RunOptions): PromiseLike<{ content: string }>;
}

function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && typeof (value as Tool).invoke === 'function' && typeof (value as Tool).validateArgs === 'function';
}

function isAgent(value: unknown): value is AgentLike {
  return typeof value === 'object' && value !== null && typeof (value as AgentLike).run === 'function' && typeof (value as AgentLike).name === 'string' && !(value instanceof Step);
}

/**
 * @internal A step that runs `tool` with its input as the arguments (validated like a model's
 * call: invalid arguments throw the ToolValidationError) and returns its ToolOutput.
 */
export function toolStep<A extends Record<string, unknown>>(tool: Tool<A>, name = tool.name): Step<A, ToolOutput> {
  let calls = 0;
  return new Step<A, ToolOutput>(name, async (args, context) => {
    const checked = await tool.validateArgs(args);
    if (!checked.ok) throw checked.error;
    calls += 1;
    return tool.invoke(checked.value, { signal: context.signal, runId: context.runId, callId: `${context.runId}_${name}_${calls}`, toolName: tool.name, context: undefined });
  });
}

/**
 * Makes a step of a function, an agent or a tool:
 * - `step(fn, name?)`: `fn(input, context)`, sync or async;
 * - `step(agent, name?)`: runs the agent on its string input (the run gets the pipeline's signal
 *   and its run id as `parentRunId`) and passes on the answer text;
 * - `step(tool, name?)`: runs the tool with the input as its arguments and passes on its ToolOutput.
 * A Step is returned as it is.
 */
export function step<I, O>(fn: StepFn<I, O>, name?: string): Step<I, O>;
export function step(agent: AgentLike, name?: string): Step<string, string>;
export function step<A extends Record<string, unknown>>(tool: Tool<A>, name?: string): Step<A, ToolOutput>;
export function step<I, O>(existing: Step<I, O>): Step<I, O>;
export function step(value: unknown, name?: string): Step<never, unknown> {
  if (value instanceof Step) return value as Step<unknown, unknown>;
  if (isTool(value)) return toolStep(value, name);
  if (isAgent(value)) {
    const agent = value;
    return new Step<unknown, unknown>(name ?? agent.name, async (input, context) => {
      const prompt = typeof input === 'string' ? input : JSON.stringify(input);
      const options = { signal: context.signal, parentRunId: context.runId };
      const bus = (context as Partial<StepRun>).bus;
      if (agent instanceof Agent && bus?.hasReceivers('run-start') === true) {
        // When someone listens, an Agent's events go to the pipeline's observers and stream too (as a
        // graph node's do), so a pipeline's trace shows the agent's run under its step.
        const result = await runStreamed(agent, prompt, options, (event) => void bus.emit(event), new RunAborter());
        return result.content;
      }
      const result = await agent.run(prompt, options);
      return result.content;
    });
  }
  if (typeof value === 'function') {
    const fn = value as StepFn<unknown, unknown>;
    return new Step(name ?? (fn.name === '' ? 'step' : fn.name), fn);
  }
  throw new TypeError('step() takes a function, an agent, a tool or a Step');
}
