import { MissingDependencyError } from './errors/missing-dependency-error.js';

const loaded = new Map<string, Promise<unknown>>();

/** True when `error` says the module itself (not one of its own imports) could not be found. */
function isNotFound(error: unknown, pkg: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(`'${pkg}'`);
}

/**
 * Imports an optional package (an optional peer dependency such as `pg`, `redis` or
 * `@modelcontextprotocol/sdk`) on first use and caches it. When it is not installed, throws a
 * MissingDependencyError: "install pg to use PostgreSQL stores: npm install pg".
 */
export function loadOptional<T>(pkg: string, purpose: string): Promise<T> {
  let pending = loaded.get(pkg);
  if (pending === undefined) {
    pending = import(pkg).catch((error: unknown) => {
      loaded.delete(pkg);
      if (isNotFound(error, pkg)) throw new MissingDependencyError({ packageName: pkg, purpose, cause: error });
      throw error;
    });
    loaded.set(pkg, pending);
  }
  return pending as Promise<T>;
}
