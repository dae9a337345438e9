import { isPlainObject } from '../core/json.js';

/**
 * A deep-frozen copy of plain objects and arrays (other values are shared as they are). Events,
 * the policy, approvers and the cache get this snapshot of a call's validated arguments, and the
 * tool gets the original: a tool that edits its arguments cannot rewrite what was already
 * reported, and an observer or approver cannot change what the tool runs with.
 */
export function snapshotArgs<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map((item: unknown) => snapshotArgs(item))) as T;
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, { value: snapshotArgs(value[key]), enumerable: true, writable: false, configurable: false });
  }
  return Object.freeze(copy) as T;
}
