/**
 * Loads what bin/agentlib.js runs for `agentlib run …`: the one-file bundle `run.bundle.cjs`
 * (scripts/bundle-run.mjs: the CLI, the run command, agentlib's library, yargs, yaml and zod)
 * through the V8 code cache (../tui/cached-bundle.ts: the user's own, else the one the build left
 * next to the bundle), instead of ~320 ES modules that Node 20
 * compiles on every start. Evaluating the bundle makes it the library that tool files import
 * (lib/tools/bundled-library.ts, decision 0023).
 */
import { fileURLToPath } from 'node:url';
import { loadCachedBundle, type CachedBundle } from '../tui/cached-bundle.js';
import type { main } from './main.js';

export { codeCacheDir } from '../tui/cached-bundle.js';

/** The bundle's file name, in the compiled CLI's directory. */
export const RUN_BUNDLE = 'run.bundle.cjs';

/** The loaded bundle: the CLI's `main`, and the bundle (to save its code cache once the run is over). */
export interface LoadedRunBundle {
  main: typeof main;
  bundle: CachedBundle;
}

/**
 * The run bundle from `cliDir` (the URL of dist/cli/, ending in `/`), with the code cache in
 * `cacheDir` (undefined: none); undefined when it was not built (running from the sources).
 * Rejects when the bundle cannot be evaluated: the caller runs the CLI's modules instead (nothing
 * of the bundle has run yet but its module-level code).
 */
export async function loadRunBundle(cliDir: URL, cacheDir: string | undefined): Promise<LoadedRunBundle | undefined> {
  const file = fileURLToPath(new URL(RUN_BUNDLE, cliDir));
  const bundle = await loadCachedBundle(file, {
    cacheDir,
    shippedCacheDir: fileURLToPath(cliDir),
    // A classic script cannot import(): the bundle's dynamic imports (packages, tool files, URLs) are this module's.
    parameters: { __agentlibImport: (specifier: string): Promise<unknown> => import(specifier) },
  });
  if (bundle === undefined) return undefined;
  const { main: bundledMain } = bundle.exports as { main?: unknown };
  if (typeof bundledMain !== 'function') {
    // not the bundle's library either: the CLI's modules run
    delete (globalThis as Record<symbol, unknown>)[Symbol.for('agentlib.bundled-library')];
    throw new Error(`${file} does not export main()`);
  }
  return { main: bundledMain as typeof main, bundle };
}
