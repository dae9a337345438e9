import { CorruptRecordError } from './errors/corrupt-record-error.js';
import { SchemaVersionError } from './errors/schema-version-error.js';
import { toStrictJson } from './strict-json.js';

/** The envelope of a stored record: what it is, its format version, and its data. */
export interface RecordEnvelope<T = unknown> {
  kind: string;
  version: number;
  data: T;
}

/**
 * Serialises `value` as a versioned record `{"kind","version","data"}` (strict JSON: a function, a
 * class instance, a cycle or a BigInt is refused with the path that holds it, never stored
 * half-broken).
 */
export function encodeRecord(kind: string, version: number, value: unknown): string {
  return `{"kind":${JSON.stringify(kind)},"version":${version},"data":${toStrictJson(value, kind)}}`;
}

/** Options of {@link decodeRecord}. */
export interface DecodeRecordOptions<T> {
  kind: string;
  /** The version this code writes. */
  version: number;
  /** Where the text came from, for errors: a file path, `sessions row "abc"`. */
  where: string;
  /** Brings data of an older version up to `version`; without it an older record is refused. */
  upgrade?: (data: unknown, from: number) => T;
}

/**
 * Reads a record written by {@link encodeRecord}: CorruptRecordError when it is not JSON or not a
 * record of `kind`, SchemaVersionError when its version is newer than `version` (or older, without
 * an `upgrade`).
 */
export function decodeRecord<T>(text: string, options: DecodeRecordOptions<T>): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptRecordError({ where: options.where, reason: `not JSON (${(error as Error).message})`, cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CorruptRecordError({ where: options.where, reason: 'not a record object' });
  const envelope = parsed as Partial<RecordEnvelope>;
  if (envelope.kind !== options.kind) throw new CorruptRecordError({ where: options.where, reason: `expected a ${options.kind} record, found ${JSON.stringify(envelope.kind ?? null)}` });
  if (typeof envelope.version !== 'number' || !Number.isInteger(envelope.version) || !('data' in envelope)) {
    throw new CorruptRecordError({ where: options.where, reason: 'the record has no version or no data' });
  }
  if (envelope.version === options.version) return envelope.data as T;
  if (envelope.version < options.version && options.upgrade !== undefined) return options.upgrade(envelope.data, envelope.version);
  throw new SchemaVersionError({ subsystem: options.kind, found: envelope.version, supported: options.version, where: options.where });
}
