import type { createProgram } from './program.js';

/** What cli/program.ts exports (the part the CLI uses). */
export interface ProgramModule {
  createProgram: typeof createProgram;
}

/**
 * cli/program.ts, from its bundle when the build made one: `dist/cli/program.bundle.js` holds the
 * same module with yargs and its helpers (cliui, y18n, yargs-parser, string-width, …) inlined
 * (scripts/bundle-tui.mjs), one file instead of ~35, which saves ~40 ms of every command's
 * start-up. agentlib's own modules stay outside the bundle, so classes are never duplicated.
 * Without the bundle (running from the sources, a partial build) the module itself is loaded.
 */
export async function loadProgram(): Promise<ProgramModule> {
  const bundle = new URL('./program.bundle.js', import.meta.url);
  try {
    return (await import(bundle.href)) as ProgramModule;
  } catch (error) {
    if (!isMissing(error, bundle)) throw error;
  }
  return import('./program.js');
}

/** Whether `error` says that `url` itself does not exist (not a module it imports). */
function isMissing(error: unknown, url: URL): boolean {
  const { code, url: missing } = (error ?? {}) as { code?: unknown; url?: unknown };
  return code === 'ERR_MODULE_NOT_FOUND' && missing === url.href;
}
