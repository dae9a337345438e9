import { register } from 'node:module';

/**
 * The library instance of `agentlib run`'s one-file bundle (`dist/cli/run.bundle.cjs`, decision
 * 0023), shared with the tool files the run imports.
 *
 * The bundle holds its own copy of the library's modules. A tool file's `import … from 'agentlib'`
 * (or `agentlib/core`, …) must reach that copy, not load the library's modules a second time:
 * otherwise every class would exist twice and `instanceof` between the tool and the library would
 * fail. The build writes a small ES module `tool-entry.js` beside each public entry
 * (`dist/lib/index.js` → `dist/lib/tool-entry.js`), which re-exports the entry's names from the
 * bundle when this process runs it, else from the entry itself. The bundle installs itself here
 * when it is evaluated; compiled tool modules import the `tool-entry.js` files
 * (lib/tools/bundle-tool-module.ts); any other module (a JavaScript tool file, a package that
 * imports agentlib) is redirected to them by a resolve hook, registered only when such a module is
 * about to be imported ({@link redirectToBundledLibrary}).
 */
export interface BundledLibrary {
  /** `tool-entry.js` URL → the matching public entry's namespace, from the bundle. */
  entries: Readonly<Record<string, () => Promise<Readonly<Record<string, unknown>>>>>;
  /** Public entry URL (`…/dist/lib/index.js`) → its `tool-entry.js` URL. */
  redirects: Readonly<Record<string, string>>;
}

/** The file the build writes beside each public entry (`index.js`). */
export const TOOL_ENTRY_FILE = 'tool-entry.js';

/** Where the bundle puts itself (read by the generated `tool-entry.js` files as well). */
const KEY = Symbol.for('agentlib.bundled-library');

type WithBundledLibrary = typeof globalThis & { [KEY]?: BundledLibrary & { redirecting?: boolean } };

/** Called by the bundle when it is evaluated: from now on the tool entries of its build serve its instances. */
export function installBundledLibrary(library: BundledLibrary): void {
  (globalThis as WithBundledLibrary)[KEY] = { ...library };
}

/** The bundle's library when this process runs `agentlib run` from it; undefined otherwise. */
export function bundledLibrary(): BundledLibrary | undefined {
  return (globalThis as WithBundledLibrary)[KEY];
}

/**
 * Makes every later import of one of the bundle's public entries (by any module: a JavaScript tool
 * file, a package that imports agentlib) load its `tool-entry.js` instead, with a module resolve
 * hook (`bundled-library-hooks.ts`). Registered once per process, and only when a module that may
 * import agentlib is about to be imported: the hook runs Node's loader on a thread of its own,
 * which costs ~30–100 ms of start-up. Does nothing when this process does not run from the bundle.
 */
export function redirectToBundledLibrary(): void {
  const library = (globalThis as WithBundledLibrary)[KEY];
  if (library === undefined || library.redirecting === true) return;
  register(new URL('./bundled-library-hooks.js', import.meta.url), { data: { redirects: library.redirects } });
  library.redirecting = true;
}
