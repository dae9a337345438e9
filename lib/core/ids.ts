import { randomUUID } from 'node:crypto';

/** Produces a new unique id with an optional prefix (`run_…`, `call_…`, `step_…`). */
export type IdGenerator = (prefix?: string) => string;

/** The default id generator: a prefix plus a random UUID without dashes. */
export const generateId: IdGenerator = (prefix) => {
  const id = randomUUID().replaceAll('-', '');
  return prefix ? `${prefix}_${id}` : id;
};

/** A deterministic id generator for tests: `prefix_1`, `prefix_2`, … */
export function sequentialIds(): IdGenerator {
  let n = 0;
  return (prefix) => `${prefix ?? 'id'}_${++n}`;
}
