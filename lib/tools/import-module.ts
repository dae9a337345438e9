import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Error codes Node uses when it cannot import a TypeScript file by itself. */
export const NO_TS_LOADER = new Set(['ERR_UNKNOWN_FILE_EXTENSION', 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING']);
const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

interface TsxApi {
  tsImport: (specifier: string, parentURL: string) => Promise<unknown>;
}

/**
 * Imports a module by URL. A TypeScript file that Node cannot load by itself (no loader registered,
 * as in the compiled CLI) is imported through tsx's scoped `tsImport`, which compiles it on the fly
 * without registering a loader for the rest of the process. tsx is loaded only then.
 */
export async function importModule(url: string): Promise<unknown> {
  try {
    return await import(url);
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code;
    const isTs = url.startsWith('file:') && TS_EXTENSIONS.has(extname(fileURLToPath(url)));
    if (!isTs || typeof code !== 'string' || !NO_TS_LOADER.has(code)) throw error;
    let api: TsxApi;
    try {
      api = await import('tsx/esm/api');
    } catch {
      throw error; // tsx is not installed: the caller explains how to load TypeScript
    }
    return api.tsImport(url, import.meta.url);
  }
}
