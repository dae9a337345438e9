/** Closers of every shared connection the storage module holds open, for {@link closeAllStorage}. */
const closers = new Set<() => Promise<void> | void>();

/** Registers a shared connection's closer; returns the function that unregisters it. */
export function registerConnection(close: () => Promise<void> | void): () => void {
  closers.add(close);
  return () => {
    closers.delete(close);
  };
}

/**
 * Closes every connection the storage module opened (SQLite files, Redis clients, PostgreSQL
 * pools), whatever their reference counts: for a process about to exit and for test teardown.
 */
export async function closeAllStorage(): Promise<void> {
  const pending = [...closers];
  closers.clear();
  await Promise.allSettled(pending.map(async (close) => close()));
}
