/**
 * The storage module (DESIGN.md §4): the one place every persisted store opens its database.
 * Stores are chosen by URL (`memory://`, `file://dir`, `sqlite://path`, `redis://…`,
 * `postgres://…`, `lancedb://dir`); one better-sqlite3 connection per file (WAL, busy timeout);
 * versioned schemas per subsystem with forward migrations; drivers loaded lazily; ids checked and
 * records written strict and versioned. Subsystems (sessions, checkpoints, caches, trace stores,
 * vectors, eval history) build their protocols and backends on these parts.
 */
export { openSqlite, sqliteDriverPath, type OpenSqliteOptions, type SqliteDatabase, type SqliteStatement, type SqliteTransaction } from './sqlite.js';
export { acquireSqlite, SQLITE_BUSY_TIMEOUT_MS, type SqliteHandle } from './sqlite-pool.js';
export { migrateSqlite, SCHEMA_TABLE } from './migrate-sqlite.js';
export { migratePostgres } from './migrate-postgres.js';
export { acquirePostgres, type PostgresHandle } from './postgres-pool.js';
export { acquireRedis, type AcquireRedisOptions, type RedisHandle } from './redis-pool.js';
export { closeAllStorage } from './connection-registry.js';
export { loadOptional } from './optional-module.js';
export { parseStoreUrl, redactStoreUrl, DEFAULT_SQLITE_FILE, STORE_SCHEMES, type ParseStoreUrlOptions, type StoreLocation, type StoreScheme } from './store-url.js';
export { checkStoreId, resolveInside, STORE_ID_PATTERN } from './store-id.js';
export { writeFileAtomic, writeFileAtomicSync } from './write-file-atomic.js';
export { assertStrictJson, toStrictJson } from './strict-json.js';
export { decodeRecord, encodeRecord, type DecodeRecordOptions, type RecordEnvelope } from './record.js';
export {
  CorruptRecordError,
  InvalidStoreIdError,
  MissingDependencyError,
  NonSerializableError,
  SchemaVersionError,
  StorageError,
  StorageUrlError,
} from './errors/index.js';
