import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BaselineStore } from '../../lib/evals/baseline/baseline-store.js';
import { openBaselineStore } from '../../lib/evals/baseline/open-baseline-store.js';
import type { EvalReport } from '../../lib/evals/eval-report.js';
import { StorageError } from '../../lib/storage/errors/index.js';
import { UsageError } from '../../cli/usage-error.js';
import { readReport } from './read-report.js';

/** A baseline named in a store: `sqlite://#main`, `postgres://host/db#release-1.4`. */
export interface StoreRef {
  url: string;
  name: string | undefined;
}

/** True for a store URL (`sqlite://`, `redis://…`, `file://dir`), false for a path. */
export function isStoreRef(ref: string): boolean {
  return /^(memory|file|sqlite|redis|rediss|postgres|postgresql):/i.test(ref.trim());
}

/** `sqlite://x.db#main` → `{ url: 'sqlite://x.db', name: 'main' }` (no `#`: name undefined). */
export function parseStoreRef(ref: string): StoreRef {
  const hash = ref.lastIndexOf('#');
  if (hash === -1) return { url: ref, name: undefined };
  const name = ref.slice(hash + 1);
  return { url: ref.slice(0, hash), name: name === '' ? undefined : name };
}

/** The suite's name for default baseline names and `<dir>/<name>.json`: `evals/support.yaml` → `support`. */
export function suiteFileName(suiteFile: string): string {
  return suiteFile.replace(/^.*[\\/]/, '').replace(/\.(ya?ml|json)$/i, '');
}

/** Opens the baseline store of a ref; a bad URL or a store that cannot be opened is a usage error (exit 2). */
export async function openBaselines(url: string, cwd: string, flag: string): Promise<BaselineStore> {
  try {
    return await openBaselineStore(url, { cwd });
  } catch (error) {
    if (StorageError.isInstance(error)) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}

/**
 * A report named on the command line: a report JSON file, a directory holding `<suite>.json`
 * (with `suiteFile`), or a baseline in a store, `url#name` (the name defaults to the suite file's
 * name when there is one). A missing report or baseline is a UsageError.
 */
export async function readReportRef(ref: string, cwd: string, options: { flag: string; suiteFile?: string }): Promise<EvalReport> {
  if (isStoreRef(ref)) {
    const { url, name: written } = parseStoreRef(ref);
    const name = written ?? (options.suiteFile === undefined ? undefined : suiteFileName(options.suiteFile));
    if (name === undefined) throw new UsageError(`${options.flag} ${ref}: name the baseline after "#": ${url}#main`);
    const store = await openBaselines(url, cwd, options.flag);
    try {
      const report = await store.get(name);
      if (report === undefined) throw new UsageError(`${options.flag}: no baseline "${name}" in ${store.where} (save one with: agentlib eval run … --save-baseline ${url}#${name})`);
      return report;
    } catch (error) {
      if (StorageError.isInstance(error)) throw new UsageError(`${options.flag}: ${error.message}`);
      throw error;
    } finally {
      await store.close();
    }
  }
  const path = resolve(cwd, ref);
  if (options.suiteFile !== undefined && existsSync(path) && statSync(path).isDirectory()) return readReport(join(path, `${suiteFileName(options.suiteFile)}.json`), cwd);
  return readReport(ref, cwd);
}
