/**
 * Storage helpers. Today: SQLite files through agentlib's own better-sqlite3 (loaded lazily), so
 * tool modules, such as the templates' data_analyst tools, need no database package of their own.
 */
export { openSqlite, sqliteDriverPath, type OpenSqliteOptions, type SqliteDatabase, type SqliteStatement } from './sqlite.js';
