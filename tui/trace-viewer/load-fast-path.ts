/**
 * Loads what bin/agentlib.js runs for an interactive `agentlib trace view <trace>`: the
 * self-contained bundle `trace-view-fast-path.bundle.cjs` (scripts/bundle-tui.mjs) through the V8
 * code cache (../cached-bundle.ts: the user's own, else the one the build left next to the bundle) when it was built and loads, else the compiled module
 * `trace-view-fast-path.js` (the same code, ~100 ms slower to load), else nothing.
 */
import { fileURLToPath } from 'node:url';
import { loadCachedBundle, type CachedBundle } from '../cached-bundle.js';

export { codeCacheDir } from '../cached-bundle.js';

/** The part of cli/trace-view-fast-path.ts the launcher calls. */
export interface TraceViewFastPath {
  /** Runs `argv` (`trace view <trace> …`) in the viewer and resolves with its exit code; undefined: the CLI must run. */
  traceViewFastPath(argv: readonly string[]): Promise<number | undefined>;
}

/** The loaded fast path and, when it came from the bundle, the bundle (to save its code cache). */
export interface LoadedFastPath {
  fastPath: TraceViewFastPath;
  bundle?: CachedBundle;
}

/** The bundle's file name, in the compiled CLI's directory. */
export const FAST_PATH_BUNDLE = 'trace-view-fast-path.bundle.cjs';
/** The compiled module's file name, in the compiled CLI's directory. */
export const FAST_PATH_MODULE = 'trace-view-fast-path.js';

/**
 * The fast path from `cliDir` (the URL of dist/cli/, ending in `/`): its bundle, with the code
 * cache in `cacheDir` (undefined: none), when the bundle exists, evaluates and exports
 * `traceViewFastPath`; else its module; undefined when neither can be loaded. Never rejects.
 */
export async function loadTraceViewFastPath(cliDir: URL, cacheDir: string | undefined): Promise<LoadedFastPath | undefined> {
  try {
    // The build's own cache (scripts/build-code-cache.mjs) lies next to the bundle.
    const bundle = await loadCachedBundle(fileURLToPath(new URL(FAST_PATH_BUNDLE, cliDir)), { cacheDir, shippedCacheDir: fileURLToPath(cliDir) });
    if (bundle !== undefined && isFastPath(bundle.exports)) return { fastPath: bundle.exports, bundle };
  } catch {
    // a broken bundle: the module does the same, only slower to load
  }
  try {
    const module: unknown = await import(new URL(FAST_PATH_MODULE, cliDir).href);
    if (isFastPath(module)) return { fastPath: module };
  } catch {
    // not built: the CLI says so
  }
  return undefined;
}

function isFastPath(value: unknown): value is TraceViewFastPath {
  return typeof value === 'object' && value !== null && typeof (value as Partial<TraceViewFastPath>).traceViewFastPath === 'function';
}
