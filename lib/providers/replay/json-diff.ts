/** Where two JSON values first differ. */
export interface JsonDifference {
  /** A path like `messages[2].content` (empty for the root). */
  path: string;
  expected: unknown;
  actual: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;
}

/** The first difference between two JSON values (depth first, keys in sorted order), or undefined. */
export function firstDifference(expected: unknown, actual: unknown, path = ''): JsonDifference | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      if (i >= expected.length || i >= actual.length) return { path: join(path, i), expected: expected[i], actual: actual[i] };
      const inner = firstDifference(expected[i], actual[i], join(path, i));
      if (inner) return inner;
    }
    return undefined;
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
    for (const key of keys) {
      const inner = firstDifference(expected[key], actual[key], join(path, key));
      if (inner) return inner;
    }
    return undefined;
  }
  return { path, expected, actual };
}
