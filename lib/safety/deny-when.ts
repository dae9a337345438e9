import { inspect, isDeepStrictEqual } from 'node:util';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { compileGlob, GlobSyntaxError, type Glob } from './glob.js';

/**
 * An argument-level condition that denies a tool call, for example
 * `{ tool: 'run_shell', argument: 'command', matches: 'rm *' }`.
 *
 * Give exactly one condition: `matches` (glob or list of globs, any may match, anchored),
 * `equals` (deep equality) or `regex` (a JavaScript regular expression, unanchored search).
 * Glob and regex conditions test strings, numbers and booleans (as text); when the argument is an
 * array, the rule fires if any element satisfies it. A missing argument never fires the rule.
 *
 * These rules stop obvious misuse; they are not a sandbox (`rm  -rf` with two spaces is another
 * string). Pair them with `review` for tools that can do damage.
 */
export interface DenyWhenRule {
  /** Glob over tool names the rule applies to. */
  tool: string;
  /** The argument to test: a top-level name or a dotted path (`options.path`, `files.0`). */
  argument: string;
  /** Glob, or globs, the argument's value is tested against (full match, case-sensitive). */
  matches?: string | readonly string[];
  /** A value the argument is compared with (deep equality). */
  equals?: unknown;
  /** A regular expression searched for in the argument's value. */
  regex?: string;
  /** The reason reported when the rule denies; a description of the rule by default. */
  reason?: string;
}

/** A validated rule, ready to test calls. Returns the denial reason, or undefined. */
export type DenyWhenCheck = (toolName: string, args: unknown) => string | undefined;

const MISSING = Symbol('missing');

/**
 * Validates `rule` and compiles its patterns. `label` names the rule in error messages
 * (`denyWhen[0]`). Throws ConfigurationError for a rule that could never work as written.
 */
export function compileDenyWhen(rule: DenyWhenRule, label: string): DenyWhenCheck {
  const toolPattern = compilePattern(rule.tool, `${label}.tool`);
  if (typeof rule.argument !== 'string' || rule.argument.trim() === '') {
    throw new ConfigurationError(`${label}.argument must be a non-empty argument name`, { key: `${label}.argument` });
  }
  const conditions = (['matches', 'equals', 'regex'] as const).filter((key) => rule[key] !== undefined);
  if (conditions.length !== 1) {
    const problem = conditions.length === 0 ? 'has no condition' : `has ${conditions.join(' and ')}`;
    throw new ConfigurationError(
      `${label} ${problem}: give exactly one of "matches", "equals" or "regex" (use one rule per condition)`,
      { key: label },
    );
  }
  const test = compileCondition(rule, label);
  const condition = describeCondition(rule);
  return (toolName, args) => {
    if (!toolPattern.test(toolName)) return undefined;
    const value = resolveArgument(args, rule.argument);
    if (value === MISSING || !test(value)) return undefined;
    return rule.reason ?? `argument "${rule.argument}" of tool "${toolName}" ${condition}`;
  };
}

/**
 * The value at `path` in `args`: an own property named exactly `path` first, then the dotted path
 * (numeric segments index arrays). Returns the MISSING marker when absent.
 */
function resolveArgument(args: unknown, path: string): unknown {
  if (isRecord(args) && Object.hasOwn(args, path)) return args[path];
  let current: unknown = args;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) {
      const index = Number(segment);
      if (index >= current.length) return MISSING;
      current = current[index] as unknown;
    } else if (isRecord(current) && Object.hasOwn(current, segment)) {
      current = current[segment];
    } else {
      return MISSING;
    }
  }
  return current;
}

function compileCondition(rule: DenyWhenRule, label: string): (value: unknown) => boolean {
  if (rule.equals !== undefined) {
    const expected = rule.equals;
    return (value) => isDeepStrictEqual(value, expected);
  }
  if (rule.regex !== undefined) {
    let regex: RegExp;
    try {
      regex = new RegExp(rule.regex, 'u');
    } catch (error) {
      throw new ConfigurationError(`${label}.regex is not a valid regular expression: ${(error as Error).message}`, {
        key: `${label}.regex`,
        cause: error,
      });
    }
    return (value) => someText(value, (text) => regex.test(text));
  }
  const globs = (typeof rule.matches === 'string' ? [rule.matches] : [...(rule.matches ?? [])]).map((pattern, i) =>
    compilePattern(pattern, typeof rule.matches === 'string' ? `${label}.matches` : `${label}.matches[${i}]`),
  );
  if (globs.length === 0) throw new ConfigurationError(`${label}.matches must list at least one pattern`, { key: `${label}.matches` });
  return (value) => someText(value, (text) => globs.some((glob) => glob.test(text)));
}

/** Applies `test` to the text of a scalar, or to each scalar element of an array. */
function someText(value: unknown, test: (text: string) => boolean): boolean {
  if (Array.isArray(value)) return value.some((item: unknown) => !Array.isArray(item) && someText(item, test));
  if (typeof value === 'string') return test(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return test(String(value));
  return false;
}

function describeCondition(rule: DenyWhenRule): string {
  if (rule.equals !== undefined) return `equals ${JSON.stringify(rule.equals) ?? inspect(rule.equals)}`;
  if (rule.regex !== undefined) return `matches regex /${rule.regex}/`;
  const patterns = typeof rule.matches === 'string' ? [rule.matches] : [...(rule.matches ?? [])];
  return `matches ${patterns.map((p) => `"${p}"`).join(' or ')}`;
}

/** Compiles one glob, turning syntax errors into ConfigurationErrors keyed by `label`. */
export function compilePattern(pattern: unknown, label: string): Glob {
  if (typeof pattern !== 'string' || pattern === '') {
    throw new ConfigurationError(`${label} must be a non-empty glob pattern`, { key: label });
  }
  try {
    return compileGlob(pattern);
  } catch (error) {
    if (GlobSyntaxError.isInstance(error)) throw new ConfigurationError(`${label}: ${error.message}`, { key: label, cause: error });
    throw error;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
