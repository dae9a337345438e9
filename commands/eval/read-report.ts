import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EvalReport } from '../../lib/evals/eval-report.js';
import { UsageError } from '../../cli/usage-error.js';

/** Reads a report JSON written by `eval run -o x.json` (a UsageError when it is not one). */
export async function readReport(path: string, cwd: string): Promise<EvalReport> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, path), 'utf8');
  } catch {
    throw new UsageError(`cannot read the report "${path}"`);
  }
  try {
    return EvalReport.fromJSON(JSON.parse(text) as unknown, path);
  } catch (error) {
    throw new UsageError(`${path}: ${(error as Error).message}`);
  }
}
