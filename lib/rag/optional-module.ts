import { MissingDependencyError } from '../storage/errors/missing-dependency-error.js';

/**
 * Imports a module of an optional peer dependency by its full specifier (a subpath such as
 * `pdfjs-dist/legacy/build/pdf.mjs`, which the storage module's `loadOptional` cannot take); when
 * the package is not installed, throws MissingDependencyError ("install pdfjs-dist to use …").
 */
export async function importOptional<T>(specifier: string, pkg: string, purpose: string): Promise<T> {
  try {
    return (await import(specifier)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error instanceof Error && error.message.includes(`'${pkg}`)) {
      throw new MissingDependencyError({ packageName: pkg, purpose, cause: error });
    }
    throw error;
  }
}
