import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import { compileDenyWhen, compilePattern, type DenyWhenRule } from './deny-when.js';
import { isPolicyDecision, POLICY_DECISIONS } from './policy-decision.js';
import type { ToolPolicyOptions } from './tool-policy-options.js';

/** A path into a policy document: keys and list indexes. */
export type ConfigPath = readonly (string | number)[];

/**
 * Where a key or value sits in the source (`policy.yaml:3:7`), for error messages; undefined when
 * the source has no positions (a plain object).
 */
export type Locate = (path: ConfigPath, target: 'key' | 'value') => string | undefined;

const POLICY_KEYS = ['allow', 'review', 'deny', 'deny_when', 'denyWhen', 'default'] as const;
const RULE_KEYS = ['tool', 'argument', 'matches', 'equals', 'regex', 'reason'] as const;
const LIST_KEYS = ['allow', 'review', 'deny'] as const;

/**
 * Validates a policy document (snake_case or camelCase keys) and returns ToolPolicy options.
 * Every problem is a ConfigurationError naming the key, with a did-you-mean for unknown keys and
 * the source position when `locate` knows it.
 */
export function parsePolicyConfig(input: unknown, locate: Locate = () => undefined): ToolPolicyOptions {
  const fail = (message: string, path: ConfigPath, target: 'key' | 'value', suggestion?: string): never => {
    const at = locate(path, target);
    const key = formatPath(path);
    throw new ConfigurationError(`${message}${at === undefined ? '' : ` (at ${at})`}`, {
      ...(key === '' ? {} : { key }),
      ...(suggestion === undefined ? {} : { suggestion }),
    });
  };
  if (input === null || input === undefined) return {};
  if (!isRecord(input)) {
    return fail(`a tool policy must be a mapping of allow, review, deny, deny_when and default; got ${describe(input)}`, [], 'value');
  }
  checkKeys(input, POLICY_KEYS, [], 'tool policy', fail);
  if (input.deny_when !== undefined && input.denyWhen !== undefined) {
    fail('the tool policy sets both "deny_when" and "denyWhen"; keep one', ['denyWhen'], 'key');
  }
  const options: ToolPolicyOptions = {};
  for (const key of LIST_KEYS) {
    const value = input[key];
    if (value !== undefined) options[key] = parsePatternList(value, key, fail);
  }
  const rulesKey = input.denyWhen !== undefined ? 'denyWhen' : 'deny_when';
  const rules = input[rulesKey];
  if (rules !== undefined) options.denyWhen = parseRules(rules, rulesKey, fail);
  const fallback = input.default;
  if (fallback !== undefined) {
    if (!isPolicyDecision(fallback)) {
      const suggestion = typeof fallback === 'string' ? closestMatch(fallback, POLICY_DECISIONS) : undefined;
      fail(
        `"default" must be one of ${POLICY_DECISIONS.join(', ')}; got ${describe(fallback)}${didYouMean(suggestion)}`,
        ['default'],
        'value',
        suggestion,
      );
    } else {
      options.default = fallback;
    }
  }
  return options;
}

type Fail = (message: string, path: ConfigPath, target: 'key' | 'value', suggestion?: string) => never;

function parsePatternList(value: unknown, key: string, fail: Fail): string[] {
  if (!Array.isArray(value)) {
    const example = typeof value === 'string' ? ` (write ${key}: ["${value}"])` : '';
    return fail(`"${key}" must be a list of glob patterns; got ${describe(value)}${example}`, [key], 'value');
  }
  return value.map((pattern: unknown, i) => {
    if (typeof pattern !== 'string' || pattern === '') {
      return fail(`"${key}[${i}]" must be a non-empty glob pattern; got ${describe(pattern)}`, [key, i], 'value');
    }
    withPosition(() => compilePattern(pattern, `${key}[${i}]`), [key, i], fail);
    return pattern;
  });
}

function parseRules(value: unknown, key: string, fail: Fail): DenyWhenRule[] {
  if (!Array.isArray(value)) {
    return fail(`"${key}" must be a list of rules like { tool, argument, matches }; got ${describe(value)}`, [key], 'value');
  }
  return value.map((raw: unknown, i) => {
    const label = `${key}[${i}]`;
    if (!isRecord(raw)) return fail(`"${label}" must be a mapping with tool, argument and a condition; got ${describe(raw)}`, [key, i], 'value');
    checkKeys(raw, RULE_KEYS, [key, i], `"${label}"`, fail);
    for (const field of ['tool', 'argument'] as const) {
      if (raw[field] === undefined) fail(`"${label}" is missing "${field}"`, [key, i], 'value');
      if (typeof raw[field] !== 'string') fail(`"${label}.${field}" must be a string; got ${describe(raw[field])}`, [key, i, field], 'value');
    }
    for (const field of ['regex', 'reason'] as const) {
      if (raw[field] !== undefined && typeof raw[field] !== 'string') {
        fail(`"${label}.${field}" must be a string; got ${describe(raw[field])}`, [key, i, field], 'value');
      }
    }
    const matches = raw.matches;
    if (matches !== undefined && typeof matches !== 'string') {
      if (!Array.isArray(matches)) fail(`"${label}.matches" must be a glob or a list of globs; got ${describe(matches)}`, [key, i, 'matches'], 'value');
      (matches as unknown[]).forEach((item, j) => {
        if (typeof item !== 'string') fail(`"${label}.matches[${j}]" must be a string; got ${describe(item)}`, [key, i, 'matches', j], 'value');
      });
    }
    const rule = raw as unknown as DenyWhenRule;
    withPosition(() => compileDenyWhen(rule, label), [key, i], fail);
    return { ...rule };
  });
}

/** Runs a semantic check, re-throwing its ConfigurationError with the source position added. */
function withPosition(check: () => unknown, path: ConfigPath, fail: Fail): void {
  try {
    check();
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    fail(error.message, error.key === undefined ? path : parsePath(error.key), 'value');
  }
}

/** The inverse of formatPath: `deny_when[0].regex` → `['deny_when', 0, 'regex']`. */
function parsePath(key: string): ConfigPath {
  return [...key.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) => (match[2] === undefined ? (match[1] ?? '') : Number(match[2])));
}

function checkKeys(value: Record<string, unknown>, known: readonly string[], path: ConfigPath, where: string, fail: Fail): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const suggestion = closestMatch(key, known);
    fail(`unknown key "${key}" in ${where}${didYouMean(suggestion)}; known keys: ${known.join(', ')}`, [...path, key], 'key', suggestion);
  }
}

function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
}

/** Dotted form of a path: `deny_when[0].regex`. */
export function formatPath(path: ConfigPath): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out === '' ? part : `${out}.${part}`), '');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
