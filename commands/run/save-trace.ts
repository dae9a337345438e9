import { join, relative, resolve } from 'node:path';
import type { AgentResult } from '../../lib/agent/result.js';

/** Where traces go unless `--trace` names a file. */
export const DEFAULT_TRACE_DIR = join('.agentlib', 'traces');

/** The trace file of run `runId`: `option` when it is a path, else `.agentlib/traces/<runId>.jsonl` under `cwd`. */
export function traceFilePath(option: string | boolean | undefined, cwd: string, runId: string): string {
  return typeof option === 'string' && option !== '' ? resolve(cwd, option) : resolve(cwd, DEFAULT_TRACE_DIR, `${runId}.jsonl`);
}

/** A trace path as shown to the user: relative to `cwd` when inside it. */
export function shownTracePath(path: string, cwd: string): string {
  const shown = relative(cwd, path);
  return shown.startsWith('..') ? path : shown;
}

/**
 * Writes the run's trace as JSONL: to `option` when it is a path, to `.agentlib/traces/<runId>.jsonl`
 * by default, nowhere with `--no-trace`. Returns the path as shown to the user (relative to `cwd`
 * when inside it), or undefined when nothing was written.
 */
export async function saveTrace(result: AgentResult, option: string | boolean | undefined, cwd: string): Promise<string | undefined> {
  if (option === false) return undefined;
  const path = traceFilePath(option, cwd, result.runId);
  await result.trace.toJSONL(path);
  return shownTracePath(path, cwd);
}
