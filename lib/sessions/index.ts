/**
 * Sessions (`agentlib/sessions`): the SessionStore protocol and its backends — JSON files,
 * SQLite (the default, `.agentlib/agentlib.db`), Redis (several processes or machines) and
 * memory — chosen by URL with `openSessionStore`, and the extension that persists an agent's
 * conversation (`new Agent({ session: { store, id } })` uses it).
 */
export { BaseSessionStore, type SessionStoreOptions } from './base-session-store.js';
export { JsonFileSessionStore, type JsonFileSessionStoreOptions } from './json-file-session-store.js';
export { MemorySessionStore } from './memory-session-store.js';
export { DEFAULT_SESSION_STORE_URL, openSessionStore, SESSION_STORE_SCHEMES } from './open-session-store.js';
export { RedisSessionStore, type RedisSessionStoreOptions } from './redis-session-store.js';
export { sessionExtension, type SessionExtension } from './session-extension.js';
export { decodeSession, encodeSession, SESSION_KIND, SESSION_VERSION } from './session-record.js';
export { DEFAULT_SQLITE_PATH, SESSION_MIGRATIONS, SQLiteSessionStore, type SQLiteSessionStoreOptions } from './sqlite-session-store.js';
export {
  DEFAULT_SESSION_NAMESPACE,
  type SessionAppendOptions,
  type SessionBinding,
  type SessionContent,
  type SessionInfo,
  type SessionRecord,
  type SessionSaveOptions,
  type SessionStore,
  type SessionWriteOptions,
} from './types.js';
