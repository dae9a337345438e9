import { resolve } from 'node:path';
import { loadAgentConfig } from '../../lib/config/parse-agent-config.js';
import { namespaceOf, sessionStoreUrl } from '../../lib/config/session-settings.js';
import { DEFAULT_SESSION_NAMESPACE, type SessionStore } from '../../lib/sessions/types.js';
import { DEFAULT_SESSION_STORE_URL, openSessionStore } from '../../lib/sessions/open-session-store.js';
import type { CommandArguments } from '../command-module.js';
import { UsageError } from '../../cli/usage-error.js';
import { InvalidStoreIdError, StorageUrlError } from '../../lib/storage/index.js';
import { parseVars } from '../run/parse-vars.js';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The store `agentlib sessions` works on: `--store` (default `sqlite://`) and `--namespace`
 * (default `default`), or the `session:` of `--agent <file>` (its store; namespace: the file's
 * `session.namespace`, else the agent's name), each flag overriding the file.
 */
export async function sessionsStore(args: CommandArguments, cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<SessionStore> {
  const agentFile = text(args.agent);
  let url = text(args.store);
  let namespace = text(args.namespace);
  let defaultTtl: number | undefined;
  if (agentFile !== undefined) {
    const file = resolve(cwd, agentFile);
    const config = await loadAgentConfig(file, { vars: parseVars(args.var as unknown[] | undefined), env });
    const settings = config.session ?? {};
    url ??= sessionStoreUrl(settings, file);
    namespace ??= settings.namespace ?? namespaceOf(config.name ?? 'agent');
    defaultTtl = settings.ttl;
  }
  try {
    return openSessionStore(url ?? DEFAULT_SESSION_STORE_URL, {
      namespace: namespace ?? DEFAULT_SESSION_NAMESPACE,
      cwd,
      ...(defaultTtl === undefined ? {} : { defaultTtl }),
    });
  } catch (error) {
    // A store URL or namespace the command line got wrong: exit 2.
    if (StorageUrlError.isInstance(error) || InvalidStoreIdError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}
