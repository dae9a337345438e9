import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ToolValidationError, type ValidationIssue } from '../core/errors/tool-validation-error.js';
import type { JsonSchema } from '../core/json.js';
import { coerceArgs } from './coerce-args.js';
import { parseArgs } from './parse-args.js';
import { formatPath } from './schema-utils.js';
import type { ToolArgsResult } from './types.js';
import { validateJsonSchema } from './validate-json-schema.js';

/** What {@link validateToolArgs} validates against. */
export interface ArgsSchema {
  /** The model-visible (normalised) JSON Schema. */
  schema: JsonSchema;
  /** The Standard Schema (zod, …) that validates, when the tool was defined with one. */
  standard: StandardSchemaV1 | undefined;
  toolName?: string;
}

/**
 * Parses, coerces and validates a call's raw arguments. Never throws: every problem (with its path)
 * comes back in one ToolValidationError whose message lists them all. The value is the schema's
 * output (zod defaults and transforms applied; JSON Schema `default`s applied).
 */
export async function validateToolArgs<A = Record<string, unknown>>(target: ArgsSchema, raw: unknown): Promise<ToolArgsResult<A>> {
  try {
    const parsed = parseArgs(raw);
    if (!parsed.ok) return failure(target, [{ path: [], message: parsed.message }], undefined);
    const coerced = coerceArgs(target.schema, parsed.value, target.standard === undefined);
    let value: unknown = coerced.value;
    let later: ValidationIssue[];
    if (target.standard) {
      const result = await target.standard['~standard'].validate(coerced.value);
      if (result.issues) later = result.issues.map(toIssue);
      else {
        later = [];
        value = result.value;
      }
    } else {
      later = validateJsonSchema(target.schema, coerced.value);
    }
    const issues = [...coerced.issues, ...later.filter((issue) => !coerced.covered.some((path) => isPrefix(path, issue.path)))];
    if (issues.length > 0) return failure(target, issues, coerced.suggestion);
    return { ok: true, value: value as A };
  } catch (error) {
    return failure(target, [{ path: [], message: `validation failed: ${(error as Error)?.message ?? String(error)}` }], undefined, error);
  }
}

function toIssue(issue: StandardSchemaV1.Issue): ValidationIssue {
  const path = (issue.path ?? []).map((segment) => {
    const key = typeof segment === 'object' ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
  return { path, message: issue.message };
}

function isPrefix(prefix: readonly (string | number)[], path: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => segment === path[i]);
}

/** The issues joined with `; `, each prefixed with its path (minus the last name when the message already quotes it). */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues
    .map((issue) => {
      const last = issue.path[issue.path.length - 1];
      if (last === undefined) return issue.message;
      const named = issue.message.includes(`"${String(last)}"`);
      const where = named ? issue.path.slice(0, -1) : issue.path;
      return where.length > 0 ? `${formatPath(where)}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

function failure<A>(target: ArgsSchema, issues: ValidationIssue[], suggestion: string | undefined, cause?: unknown): ToolArgsResult<A> {
  const error = new ToolValidationError(formatIssues(issues), {
    issues,
    ...(target.toolName === undefined ? {} : { toolName: target.toolName }),
    ...(suggestion === undefined ? {} : { suggestion }),
    ...(cause === undefined ? {} : { cause }),
  });
  return { ok: false, error };
}
