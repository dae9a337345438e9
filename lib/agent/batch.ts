import { assistantMessage } from '../core/message.js';
import { AgentUsage } from '../core/usage.js';
import type { EventBus } from '../events/bus.js';
import { serializeError } from '../events/serialized-error.js';
import { TraceRecorder } from '../trace/recorder.js';
import type { ResolvedAgentConfig } from './config.js';
import { failedRunResult } from './execute-run.js';
import { AgentResult } from './result.js';
import type { AgentInput, RunOptions } from './types.js';

/** Options of `Agent.batch`. */
export interface BatchOptions extends Omit<RunOptions, 'signal'> {
  /** Prompts run at once. Default 4. */
  maxConcurrency?: number;
  /** Called after each prompt finishes with (completed, total). */
  onProgress?: (completed: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * Runs prompts through a promise pool of `maxConcurrency`, keeping input order. A failing prompt
 * becomes a result with status `error` (and `error` set, with the failed run's own id and trace);
 * the others are unaffected. Runs link to the batch id unless a parentRunId is configured.
 */
export async function runBatch(
  config: ResolvedAgentConfig,
  bus: EventBus,
  prompts: readonly AgentInput[],
  options: BatchOptions,
  run: (input: AgentInput, options: RunOptions) => Promise<AgentResult>,
): Promise<AgentResult[]> {
  const { now, generateId } = config.runtime;
  const maxConcurrency = Math.max(1, Math.floor(options.maxConcurrency ?? 4));
  const batchId = generateId('batch');
  const started = now();
  const emitBatch = (event: Parameters<EventBus['emit']>[0]): Promise<void> | void => bus.emit(event);
  await emitBatch({ type: 'batch-start', runId: batchId, timestamp: started, size: prompts.length, maxConcurrency });
  const { maxConcurrency: _m, onProgress, ...runOptions } = options;
  const results = new Array<AgentResult>(prompts.length);
  let next = 0;
  let completed = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (next < prompts.length) {
      const index = next++;
      const prompt = prompts[index] as AgentInput;
      try {
        results[index] = await run(prompt, { ...runOptions, parentRunId: runOptions.parentRunId ?? config.trace.parentRunId ?? batchId });
      } catch (error) {
        failed += 1;
        results[index] = failedRunResult(error) ?? failedResult(config, batchId, error, now() - started);
      }
      completed += 1;
      try {
        onProgress?.(completed, prompts.length);
      } catch (error) {
        // A broken progress callback must not lose the batch's results.
        process.emitWarning(`agentlib: batch onProgress threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(maxConcurrency, prompts.length) }, worker));
  await emitBatch({
    type: 'batch-end',
    runId: batchId,
    timestamp: now(),
    size: prompts.length,
    succeeded: prompts.length - failed,
    failed,
    durationMs: now() - started,
  });
  return results;
}

function failedResult(config: ResolvedAgentConfig, batchId: string, error: unknown, durationMs: number): AgentResult {
  const serialized = serializeError(error);
  const runId = config.runtime.generateId('run');
  return new AgentResult({
    runId,
    status: 'error',
    message: assistantMessage(''),
    iterations: 0,
    toolCalls: [],
    usage: new AgentUsage(),
    reasoningHistory: [],
    trace: new TraceRecorder({ runId, parentRunId: batchId }).trace,
    providerUsed: config.provider.name,
    model: config.model,
    durationMs,
    error: serialized,
  });
}
