import { ConfigurationError } from '../core/errors/configuration-error.js';

/**
 * Imports an optional peer dependency (pdfjs-dist, pg, pgvector, sqlite-vec, @lancedb/lancedb) on
 * first use; when it is not installed, a ConfigurationError says which package to install for what.
 */
export async function importOptional<T>(specifier: string, pkg: string, purpose: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new ConfigurationError(`${purpose} needs the package ${pkg}: npm install ${pkg}`, { cause: error });
    }
    throw error;
  }
}
