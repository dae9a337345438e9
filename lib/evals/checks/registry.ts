import type { CheckDefinition } from './check-definition.js';
import { CUSTOM_CHECK } from './custom-check.js';
import { JSON_CHECKS } from './json-checks.js';
import { JUDGE_CHECKS } from './judge-checks.js';
import { LIMIT_CHECKS } from './limit-checks.js';
import { SAFETY_CHECKS } from './safety-checks.js';
import { TEXT_CHECKS } from './text-checks.js';
import { TOOL_CHECKS } from './tool-checks.js';
import { SNAPSHOT_CHECK } from '../snapshot/snapshot-check.js';

/** Every assertion type, by name. */
export const CHECKS: ReadonlyMap<string, CheckDefinition> = new Map(
  [...TEXT_CHECKS, ...JSON_CHECKS, ...TOOL_CHECKS, ...LIMIT_CHECKS, ...SAFETY_CHECKS, CUSTOM_CHECK, SNAPSHOT_CHECK, ...JUDGE_CHECKS].map((check) => [check.type, check]),
);

/** Every assertion type name (without the `not-` forms). */
export const ASSERTION_TYPES: readonly string[] = [...CHECKS.keys()];

/** `not-contains` → `{ type: 'contains', negate: true }`. */
export function splitNegation(written: string): { type: string; negate: boolean } {
  return written.startsWith('not-') ? { type: written.slice(4), negate: true } : { type: written, negate: false };
}
