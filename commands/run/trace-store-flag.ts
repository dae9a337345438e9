import { UsageError } from '../../cli/usage-error.js';
import { StorageError } from '../../lib/storage/index.js';
import { openTraceStore } from '../../lib/trace/stores/open-trace-store.js';
import type { TraceStore } from '../../lib/trace/stores/types.js';

/** The trace store of `agentlib serve` and `agentlib chat` unless `--trace-store` names another. */
export const DEFAULT_TRACE_STORE_URL = 'sqlite://';

/**
 * The store URL `--trace-store` asks for: absent or without a value, the default SQLite file
 * `.agentlib/agentlib.db` (`sqlite://`); `--no-trace-store` (false): none. `memory://` is refused:
 * the traces would vanish with the process, and nothing can read them while it runs.
 */
export function traceStoreUrl(flag: unknown): string | undefined {
  if (flag === false) return undefined;
  const url = typeof flag === 'string' && flag !== '' ? flag : DEFAULT_TRACE_STORE_URL;
  if (url === 'memory' || url.startsWith('memory:')) {
    throw new UsageError('--trace-store memory:// would keep the traces only until this process ends, where nothing can read them: use sqlite://[file.db] or file://dir, or --no-trace-store to keep none.');
  }
  return url;
}

/** Opens the store of `url` (see {@link traceStoreUrl}); a URL it cannot open is a usage error. */
export function openTraceStoreFlag(url: string, cwd: string): TraceStore {
  try {
    return openTraceStore(url, { cwd });
  } catch (error) {
    if (StorageError.isInstance(error)) throw new UsageError(`--trace-store: ${error.message}`, { cause: error });
    throw error;
  }
}
