// The eval document backends under test (shared by the BaselineStore and SnapshotStore
// conformance files): each opens a fresh, empty place, and says what it wrote outside the store.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DocumentBackend } from '../../../lib/evals/stores/document-backend.js';
import { FileDocumentBackend } from '../../../lib/evals/stores/file-document-backend.js';
import { MemoryDocumentBackend } from '../../../lib/evals/stores/memory-document-backend.js';
import { PostgresDocumentBackend } from '../../../lib/evals/stores/postgres-document-backend.js';
import { RedisDocumentBackend } from '../../../lib/evals/stores/redis-document-backend.js';
import { SqliteDocumentBackend } from '../../../lib/evals/stores/sqlite-document-backend.js';
import { closeAllStorage } from '../../../lib/storage/connection-registry.js';
import { requires } from '../../support/requirements.js';
import { freshPostgresDatabase, redisTestPrefix, redisTestUrl, type TestDatabase } from '../../support/services.js';

/** A backend kind: `open(place, kind)` twice on one place shares the data (except memory). */
export interface BackendUnderTest {
  name: string;
  options: { skip: string | false } | Record<string, never>;
  persistent: boolean;
  /** A fresh place; `files()` lists every file under the test's temporary root (nothing may escape it). */
  place(): Promise<string>;
  open(place: string, kind: string): Promise<DocumentBackend>;
}

let root: string | undefined;
const databases: TestDatabase[] = [];
let count = 0;

async function temp(): Promise<string> {
  root ??= await mkdtemp(join(tmpdir(), 'agentlib-eval-docs-'));
  return root;
}

/** Every file name under the temporary root (recursive), to assert nothing escaped a store's directory. */
export async function filesUnderRoot(): Promise<string[]> {
  if (root === undefined) return [];
  return (await readdir(root, { recursive: true })).map(String).sort();
}

export async function cleanupBackends(): Promise<void> {
  await closeAllStorage();
  for (const db of databases) await db.drop();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
}

export const BACKENDS: readonly BackendUnderTest[] = [
  {
    name: 'memory',
    options: {},
    persistent: false,
    place: () => Promise.resolve(`m${count++}`),
    open: () => Promise.resolve(new MemoryDocumentBackend()),
  },
  {
    name: 'file',
    options: {},
    persistent: true,
    place: async () => join(await temp(), `files-${count++}`, 'store'),
    open: (place) => Promise.resolve(new FileDocumentBackend(place)),
  },
  {
    name: 'sqlite',
    options: {},
    persistent: true,
    place: async () => join(await temp(), `db-${count++}.db`),
    open: (place, kind) => Promise.resolve(new SqliteDocumentBackend(place, kind)),
  },
  {
    name: 'redis',
    options: requires('redis'),
    persistent: true,
    place: () => Promise.resolve(redisTestPrefix(`evaldocs${count++}`)),
    open: (place, kind) => Promise.resolve(new RedisDocumentBackend(redisTestUrl(), kind, { keyPrefix: place })),
  },
  {
    name: 'postgres',
    options: requires('postgres'),
    persistent: true,
    place: async () => {
      const db = await freshPostgresDatabase();
      databases.push(db);
      return db.url;
    },
    open: (place, kind) => PostgresDocumentBackend.open(place, kind),
  },
];
