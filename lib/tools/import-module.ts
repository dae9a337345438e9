import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCacheDir } from '../core/cache-dir.js';

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
 */
export async function importModule(url: string, options: ImportModuleOptions = {}): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    const isTs = url.startsWith('file:') && TS_EXTENSIONS.has(extname(fileURLToPath(url)));
    if (!isTs || typeof code !== 'string' || !NO_TS_LOADER.has(code)) throw error;
    const cacheDir = userCacheDir(options.env ?? process.env);
    if (cacheDir !== undefined) {
      const { importCachedToolModule } = await import('./tool-module-cache.js');
      const cached = await importCachedToolModule(fileURLToPath(url), cacheDir);
      if (cached !== undefined) return cached.module;
    }
    let api: TsxApi;
    try {
      api = await import('tsx/esm/api');
    } catch {
      throw error; // tsx is not installed: the caller explains how to load TypeScript
    }
    return api.tsImport(url, import.meta.url);
  }
}
