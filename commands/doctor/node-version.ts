import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPackageRoot } from '../../lib/config/package-root.js';
import { checkResult, type CheckResult } from './check.js';

/** The range in agentlib's package.json when it cannot be read. */
export const DEFAULT_ENGINES_NODE = '>=20.19';

type Triple = [number, number, number];

/** `v20.19.1` / `20.19` → `[20, 19, 1]` / `[20, 19, 0]`; undefined when it is not a version. */
export function parseVersion(text: string): Triple | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(text.trim());
  if (match === null) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** One comparator (`>=20.19`, `^20.19.0`, `20`) against a version; undefined when it cannot be read. */
function satisfiesComparator(version: Triple, comparator: string): boolean | undefined {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(comparator);
  if (match === null) return undefined;
  const operator = match[1] ?? '=';
  const parts = [match[2], match[3], match[4]].map((part) => (part === undefined || part === 'x' || part === '*' ? undefined : Number(part)));
  const given = parts.filter((part) => part !== undefined).length;
  const base: Triple = [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
  // The first version above a partial one: `20` → 21.0.0, `20.19` → 20.20.0.
  const next = (depth: number): Triple => (depth <= 1 ? [base[0] + 1, 0, 0] : depth === 2 ? [base[0], base[1] + 1, 0] : [base[0], base[1], base[2] + 1]);
  const c = compare(version, base);
  switch (operator) {
    case '>=':
      return c >= 0;
    case '>':
      return compare(version, next(given)) >= 0;
    case '<':
      return c < 0;
    case '<=':
      return compare(version, next(given)) < 0;
    case '^':
      return c >= 0 && compare(version, base[0] > 0 || given === 1 ? next(1) : base[1] > 0 || given === 2 ? next(2) : next(3)) < 0;
    case '~':
      return c >= 0 && compare(version, next(Math.min(given, 2))) < 0;
    default:
      return c >= 0 && compare(version, next(given)) < 0;
  }
}

/**
 * Whether `version` satisfies an npm `engines` range made of comparators (`>=20.19`, `^22`,
 * `>=18 <21`, `20.x || >=22`). Undefined when the version or the range cannot be read.
 */
export function satisfiesRange(version: string, range: string): boolean | undefined {
  const parsed = parseVersion(version);
  if (parsed === undefined) return undefined;
  let unknown = false;
  for (const alternative of range.split('||')) {
    const comparators = alternative.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).filter((part) => part !== '');
    if (comparators.length === 0) return true;
    const results = comparators.map((comparator) => satisfiesComparator(parsed, comparator));
    if (results.some((result) => result === undefined)) unknown = true;
    else if (results.every((result) => result === true)) return true;
  }
  return unknown ? undefined : false;
}

/** `engines.node` of agentlib's package.json (default `>=20.19`). */
export function enginesRange(): string {
  const root = findPackageRoot(import.meta.url);
  if (root === undefined) return DEFAULT_ENGINES_NODE;
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines?: { node?: unknown } };
    return typeof manifest.engines?.node === 'string' ? manifest.engines.node : DEFAULT_ENGINES_NODE;
  } catch {
    return DEFAULT_ENGINES_NODE;
  }
}

/** Node's version against agentlib's `engines.node` (required). */
export function checkNodeVersion(version: string = process.versions.node, range: string = enginesRange()): CheckResult {
  const shown = version.startsWith('v') ? version : `v${version}`;
  const ok = satisfiesRange(version, range);
  if (ok === undefined) {
    return checkResult({ id: 'node', title: 'Node.js', status: 'warn', required: true, detail: `${shown}; cannot compare with the engines range "${range}"`, data: { version: shown, engines: range } });
  }
  return checkResult({
    id: 'node',
    title: 'Node.js',
    status: ok ? 'ok' : 'fail',
    required: true,
    detail: ok ? `${shown} (engines: ${range})` : `${shown} does not satisfy the engines range ${range}`,
    hint: ok ? undefined : `install a Node.js version matching ${range} (for example the current LTS)`,
    data: { version: shown, engines: range },
  });
}
