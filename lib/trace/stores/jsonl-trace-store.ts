import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TraceFormatError } from '../../core/errors/trace-format-error.js';
import { parseTraceJSON, parseTraceJSONL, traceToJSONL } from '../jsonl.js';
import type { AgentTraceJSON } from '../trace-step.js';
import { checkTraceQuery } from './check-query.js';
import { checkRunId } from './run-id.js';
import { selectSummaries, summarizeTrace } from './trace-summary.js';
import type { PruneOptions, TraceQuery, TraceStore, TraceSummary } from './types.js';

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && ['ENOENT', 'ENOTDIR'].includes((error as { code?: string }).code ?? '');
}

/**
 * One JSONL file per run in a directory (`<dir>/<runId>.jsonl`, the format and place `agentlib run`
 * writes: `.agentlib/traces`). Files are written whole and renamed into place; run ids must be
 * `[A-Za-z0-9_.-]{1,128}` without `..`. `list` reads every file: fine for hundreds of traces, use
 * SQLiteTraceStore for more.
 */
export class JSONLTraceStore implements TraceStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  #file(runId: string): string {
    return join(this.dir, `${checkRunId(runId)}.jsonl`);
  }

  async save(trace: AgentTraceJSON): Promise<void> {
    const copy = parseTraceJSON(trace);
    const file = this.#file(copy.runId);
    await mkdir(this.dir, { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, traceToJSONL(copy));
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(runId: string): Promise<AgentTraceJSON | undefined> {
    const file = this.#file(runId);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return this.#parse(text, file);
  }

  #parse(text: string, file: string): AgentTraceJSON {
    try {
      return parseTraceJSONL(text);
    } catch (error) {
      if (!TraceFormatError.isInstance(error)) throw error;
      throw new TraceFormatError(`${file}: ${error.message}`, { cause: error });
    }
  }

  async #all(): Promise<{ file: string; summary: TraceSummary }[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const files = names.filter((name) => name.endsWith('.jsonl')).map((name) => join(this.dir, name));
    return Promise.all(files.map(async (file) => ({ file, summary: summarizeTrace(this.#parse(await readFile(file, 'utf8'), file)) })));
  }

  async list(query: TraceQuery = {}): Promise<TraceSummary[]> {
    checkTraceQuery(query);
    return selectSummaries((await this.#all()).map((entry) => entry.summary), query);
  }

  async delete(runId: string): Promise<boolean> {
    const file = this.#file(runId);
    try {
      await rm(file);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async prune({ before }: PruneOptions): Promise<number> {
    const old = (await this.#all()).filter((entry) => entry.summary.startedAt < before);
    await Promise.all(old.map((entry) => rm(entry.file, { force: true })));
    return old.length;
  }

  async close(): Promise<void> {}
}
