import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { SessionStore } from '../sessions/types.js';
import type { SessionSettings } from './types.js';

/** The store URL `session:` names: `store` with its `path` or `url`. */
export function sessionStoreUrl(settings: SessionSettings, label: string): string {
  const store = settings.store ?? 'sqlite';
  if (store !== 'redis' && settings.url !== undefined) throw new ConfigurationError(`${label}: session.url applies to store: redis only (here it would be ignored)`, { key: 'session.url' });
  if ((store === 'redis' || store === 'memory') && settings.path !== undefined) throw new ConfigurationError(`${label}: session.path applies to store: sqlite or file only (here it would be ignored)`, { key: 'session.path' });
  switch (store) {
    case 'memory':
      return 'memory://';
    case 'file':
      return `file://${settings.path ?? '.agentlib/sessions'}`;
    case 'sqlite':
      return `sqlite://${settings.path ?? ''}`;
    case 'redis':
      if (settings.url === undefined) throw new ConfigurationError(`${label}: session.store redis needs session.url (redis://host:port)`, { key: 'session.url' });
      return settings.url;
  }
}

/** An agent name as a namespace: characters outside `[A-Za-z0-9_.-]` become `-` (no `..`, at most 128). */
export function namespaceOf(agentName: string): string {
  const cleaned = agentName.replace(/[^A-Za-z0-9_.-]/g, '-').replace(/\.{2,}/g, '.').slice(0, 128);
  return cleaned === '' ? 'default' : cleaned;
}

/**
 * Opens the session store of an agent file's `session:` (namespace: `session.namespace`, else
 * the agent's name; `defaultTtl`: `session.ttl`), or the one `url` names instead (a CLI flag).
 * The sessions module is imported only here, when a file uses sessions.
 */
export async function openConfiguredSessionStore(settings: SessionSettings, agentName: string, label: string, url?: string): Promise<SessionStore> {
  const { openSessionStore } = await import('../sessions/open-session-store.js');
  return openSessionStore(url ?? sessionStoreUrl(settings, label), {
    namespace: settings.namespace ?? namespaceOf(agentName),
    ...(settings.ttl === undefined ? {} : { defaultTtl: settings.ttl }),
  });
}
