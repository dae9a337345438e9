// TEMPORARY until lib/storage lands (encodeRecord/decodeRecord/toStrictJson there): removed at the merge.
import { AgentlibError } from '../../core/errors/agentlib-error.js';

export class NonSerializableError extends AgentlibError {
  override readonly name: string = 'NonSerializableError';
  constructor(readonly path: string, what: string) {
    super(`${path} is ${what}, which JSON cannot hold`);
  }
}
export class CorruptRecordError extends AgentlibError {
  override readonly name: string = 'CorruptRecordError';
}
export class SchemaVersionError extends AgentlibError {
  override readonly name: string = 'SchemaVersionError';
}

export function toStrictJson(value: unknown, root: string): unknown {
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): unknown => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new NonSerializableError(path, String(v));
      return v;
    }
    if (typeof v === 'bigint') throw new NonSerializableError(path, 'a BigInt');
    if (typeof v === 'function') throw new NonSerializableError(path, 'a function');
    if (typeof v === 'undefined' || typeof v === 'symbol') throw new NonSerializableError(path, typeof v);
    const o = v;
    if (seen.has(o)) throw new NonSerializableError(path, 'a cycle');
    seen.add(o);
    try {
      if (Array.isArray(o)) return o.map((item, i) => walk(item, `${path}[${i}]`));
      const proto = Object.getPrototypeOf(o) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new NonSerializableError(path, `a ${(o as { constructor?: { name?: string } }).constructor?.name ?? 'class'} instance`);
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(o)) {
        if (item === undefined) continue;
        out[k] = walk(item, `${path}.${k}`);
      }
      return out;
    } finally {
      seen.delete(o);
    }
  };
  return walk(value, root);
}

export function encodeRecord(kind: string, version: number, value: unknown): string {
  return JSON.stringify({ kind, version, value: toStrictJson(value, kind) });
}

export function decodeRecord(text: string, kind: string, version: number, where: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CorruptRecordError(`${where}: not JSON (${(error as Error).message})`);
  }
  const r = parsed as { kind?: unknown; version?: unknown; value?: unknown };
  if (typeof parsed !== 'object' || parsed === null || r.kind !== kind || typeof r.version !== 'number') throw new CorruptRecordError(`${where}: not a ${kind} record`);
  if (r.version > version) throw new SchemaVersionError(`${where}: ${kind} version ${r.version} is newer than this agentlib reads (${version})`);
  return r.value;
}

export class InvalidStoreIdError extends AgentlibError {
  override readonly name: string = 'InvalidStoreIdError';
}
const ID = /^[A-Za-z0-9_.-]{1,128}$/;
export function checkStoreId(id: string, what: string): string {
  if (!ID.test(id) || id.includes('..')) throw new InvalidStoreIdError(`invalid ${what} "${id}": use 1-128 of A-Z a-z 0-9 _ . - (no "..")`);
  return id;
}
