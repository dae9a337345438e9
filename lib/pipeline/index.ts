/**
 * Composable pipelines (`agentlib/pipeline`): steps from functions, agents and tools joined with
 * `pipe(a, b, c)` / `a.pipe(b)` (the spec's `|`), with `parallel`, `branch`, `compose`, `retry`
 * and `cacheStep`. `pipeline.run(input)` returns the output and each StepResult;
 * `pipeline.stream(input)` streams `step-start` / `step-end` events.
 */
export { Step, Pipeline, type StepFn } from './step.js';
export { step, type AgentLike } from './to-step.js';
export { pipe } from './pipe.js';
export { parallel, type ParallelOutputs } from './parallel.js';
export { branch } from './branch.js';
export { compose, type ComposeMap } from './compose.js';
export { retry, type RetryOptions } from './retry.js';
export { cacheStep, type CacheStepOptions } from './cache-step.js';
export { PipelineError } from './pipeline-error.js';
export type { StepContext, StepResult } from './step-context.js';
export type { PipelineResult, PipelineRunOptions } from './run-pipeline.js';
