import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { Message } from '../core/message.js';
import { messagesProblem } from '../memory/message-shape.js';
import { CorruptRecordError, decodeRecord, encodeRecord, toStrictJson } from '../storage/index.js';
import type { SessionContent, SessionHeader, SessionInfo, SessionRecord } from './types.js';

/** Record kind and version of a stored session (the storage module's versioned envelope). */
export const SESSION_KIND = 'session';
export const SESSION_VERSION = 1;

/** The session as stored text. */
export function encodeSession(record: SessionRecord): string {
  return encodeRecord(SESSION_KIND, SESSION_VERSION, record);
}

/**
 * The content of a session as the middle of its stored text, `"messages":[…],"summary":…,"metadata":{…}`,
 * checked as strict JSON (NonSerializableError naming `session.messages[3].…`, the path
 * {@link encodeSession} names). A save encodes this once, before any I/O, and
 * {@link composeSession} puts the header around it for whichever revision the write gets.
 */
export function encodeSessionContent(record: Pick<SessionRecord, 'messages' | 'summary' | 'metadata'>): string {
  return `"messages":${toStrictJson(record.messages, 'session.messages')},"summary":${toStrictJson(record.summary, 'session.summary')},"metadata":${toStrictJson(record.metadata, 'session.metadata')}`;
}

/**
 * The stored text of `record` from its content encoded by {@link encodeSessionContent}: the same
 * bytes as `encodeSession(record)` (a test holds them equal), without walking the messages again.
 */
export function composeSession(record: SessionRecord, content: string): string {
  const expires = record.expiresAt === undefined ? '' : `,"expiresAt":${toStrictJson(record.expiresAt, 'session.expiresAt')}`;
  return `{"kind":${JSON.stringify(SESSION_KIND)},"version":${SESSION_VERSION},"data":{"id":${JSON.stringify(record.id)},${content},"createdAt":${toStrictJson(record.createdAt, 'session.createdAt')},"updatedAt":${toStrictJson(record.updatedAt, 'session.updatedAt')},"revision":${toStrictJson(record.revision, 'session.revision')}${expires}}}`;
}

/** The header of a stored session (a new object: never the record with its messages). */
export function headerOf(record: SessionHeader): SessionHeader {
  return record.expiresAt === undefined ? { revision: record.revision, createdAt: record.createdAt } : { revision: record.revision, createdAt: record.createdAt, expiresAt: record.expiresAt };
}

/**
 * True when two headers describe the same stored record (both absent, or the same revision,
 * creation time and expiry). A compare-and-set checks all three: a session deleted and written
 * again by another writer can be back at the same revision with another creation time, and a
 * save computes its record from the whole header (same header, same record written).
 */
export function sameHeader(a: SessionHeader | undefined, b: SessionHeader | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.revision === b.revision && a.createdAt === b.createdAt && a.expiresAt === b.expiresAt;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored session read back and checked (CorruptRecordError / SchemaVersionError otherwise). */
export function decodeSession(text: string, where: string): SessionRecord {
  const value = decodeRecord<unknown>(text, { kind: SESSION_KIND, version: SESSION_VERSION, where });
  const problem = !isRecord(value)
    ? 'not an object'
    : typeof value.id !== 'string'
      ? 'id must be a string'
      : messagesProblem(value.messages, 'messages') ??
        (typeof value.summary !== 'string' ? 'summary must be a string' : undefined) ??
        (!isRecord(value.metadata) ? 'metadata must be an object' : undefined) ??
        (['createdAt', 'updatedAt', 'revision'].find((key) => typeof value[key] !== 'number') === undefined ? undefined : 'createdAt, updatedAt and revision must be numbers');
  if (problem !== undefined) throw new CorruptRecordError({ where, reason: `not a session record: ${problem}` });
  return value as SessionRecord;
}

/** Checks a TTL in seconds (≥ 0, finite); 0 means no expiry. */
export function checkTtl(ttl: number | undefined, what: string): number | undefined {
  if (ttl === undefined) return undefined;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) throw new ConfigurationError(`${what} must be a number of seconds ≥ 0, got ${String(ttl)}`, { key: 'ttl' });
  return ttl;
}

/** When a session written at `now` expires (undefined: never). */
export function expiryAt(now: number, ttl: number | undefined, defaultTtl: number | undefined): number | undefined {
  const seconds = checkTtl(ttl, 'ttl') ?? defaultTtl;
  return seconds === undefined || seconds === 0 ? undefined : now + Math.round(seconds * 1000);
}

/** True when the record has expired at `now`. */
export function isExpired(record: Pick<SessionRecord, 'expiresAt'>, now: number): boolean {
  return record.expiresAt !== undefined && record.expiresAt <= now;
}

/**
 * The session after a `save`. Its messages are the caller's (a shallow copy of the list): the
 * stores encode it at once and keep only the text.
 */
export function savedRecord(previous: SessionHeader | undefined, id: string, content: SessionContent, now: number, expiresAt: number | undefined): SessionRecord {
  const record: SessionRecord = {
    id,
    messages: [...content.messages],
    summary: content.summary ?? '',
    metadata: content.metadata ?? {},
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    revision: (previous?.revision ?? 0) + 1,
  };
  if (expiresAt !== undefined) record.expiresAt = expiresAt;
  return record;
}

/** The session after an `append` (metadata and, unless given, the summary kept). */
export function appendedRecord(previous: SessionRecord | undefined, id: string, messages: readonly Message[], summary: string | undefined, now: number, expiresAt: number | undefined): SessionRecord {
  return savedRecord(previous, id, { messages: [...(previous?.messages ?? []), ...messages], summary: summary ?? previous?.summary ?? '', metadata: previous?.metadata ?? {} }, now, expiresAt);
}

/** A copy of `source` under `newId`, at revision 1. */
export function branchedRecord(source: SessionRecord, newId: string, now: number): SessionRecord {
  const record: SessionRecord = { ...structuredClone(source), id: newId, createdAt: now, updatedAt: now, revision: 1 };
  return record;
}

/** What `list()` shows of a session. */
export function sessionInfo(record: SessionRecord): SessionInfo {
  const info: SessionInfo = { id: record.id, messageCount: record.messages.length, createdAt: record.createdAt, updatedAt: record.updatedAt, revision: record.revision };
  if (record.expiresAt !== undefined) info.expiresAt = record.expiresAt;
  return info;
}

/** Most recently updated first, then by id. */
export function byRecency(a: SessionInfo, b: SessionInfo): number {
  return b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
