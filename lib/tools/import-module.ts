import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCacheDir } from '../core/cache-dir.js';
import { bundledLibrary, redirectToBundledLibrary } from './bundled-library.js';

/** Error codes Node uses when it cannot import a TypeScript file by itself. */
export const NO_TS_LOADER = new Set(['ERR_UNKNOWN_FILE_EXTENSION', 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING']);
const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

interface TsxApi {
  tsImport: (specifier: string, parentURL: string) => Promise<unknown>;
}

/** Options of {@link importModule}. */
export interface ImportModuleOptions {
  /** Where the compiled-module cache lives (`AGENTLIB_CACHE_DIR`, `XDG_CACHE_HOME`). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Imports a module by URL. A TypeScript file that Node cannot load by itself (no loader registered,
 * as in the compiled CLI) is compiled with its local imports into one ES module, kept in the user's
 * cache directory (`<cache>/tools/`, see lib/tools/tool-module-cache.ts) and imported from there;
 * later runs import the cached module without loading a compiler. When the cache cannot be used,
 * tsx's scoped `tsImport` compiles it on the fly without registering a loader for the rest of the
 * process. The compilers are loaded only then.
 *
 * When the process runs `agentlib run` from its bundle (lib/tools/bundled-library.ts), the module's
 * imports of agentlib must reach the bundle's instances: a TypeScript file goes to the cache first
 * (its compiled module imports agentlib through the tool entries), and any module that may import
 * agentlib another way (a JavaScript file, a package depending on agentlib, tsx's compile) is
 * imported after the resolve hook that redirects agentlib's entries is registered.
 */
export async function importModule(url: string, options: ImportModuleOptions = {}): Promise<unknown> {
  const isTs = url.startsWith('file:') && TS_EXTENSIONS.has(extname(fileURLToPath(url)));
  let failure: unknown;
  if (!isTs || bundledLibrary() === undefined) {
    redirectToBundledLibrary();
    try {
      return await import(url);
    } catch (error) {
      if (!isTs || !cannotLoadTs(error)) throw error;
      failure = error;
    }
  }
  const cacheDir = userCacheDir(options.env ?? process.env);
  if (cacheDir !== undefined) {
    const { importCachedToolModule } = await import('./tool-module-cache.js');
    const cached = await importCachedToolModule(fileURLToPath(url), cacheDir, { beforeImport: redirectIfImportsAgentlib });
    if (cached !== undefined) return cached.module;
  }
  redirectToBundledLibrary();
  if (failure === undefined) {
    try {
      return await import(url); // Node may strip the types itself
    } catch (error) {
      if (!cannotLoadTs(error)) throw error;
      failure = error;
    }
  }
  let api: TsxApi;
  try {
    api = await import('tsx/esm/api');
  } catch {
    throw failure; // tsx is not installed: the caller explains how to load TypeScript
  }
  return api.tsImport(url, import.meta.url);
}

/** Whether `error` says that Node cannot import a TypeScript file by itself. */
function cannotLoadTs(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NO_TS_LOADER.has(code);
}

/**
 * A compiled tool module imports agentlib through its tool entries, but a package it imports may
 * import agentlib itself: then the redirecting hook is registered first (only matters when the
 * process runs from the bundle).
 */
function redirectIfImportsAgentlib(packageJsons: readonly string[]): void {
  if (bundledLibrary() === undefined) return;
  for (const path of packageJsons) {
    let pkg: Record<string, unknown>;
    try {
      pkg = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    } catch {
      redirectToBundledLibrary(); // cannot tell: the safe way
      return;
    }
    if (pkg['name'] === 'agentlib') continue;
    const fields = ['dependencies', 'peerDependencies', 'optionalDependencies'].map((field) => pkg[field]);
    if (fields.some((deps) => typeof deps === 'object' && deps !== null && 'agentlib' in deps)) {
      redirectToBundledLibrary();
      return;
    }
  }
}
