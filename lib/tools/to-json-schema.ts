import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { z } from 'zod';
import { ToolValidationError, type ValidationIssue } from '../core/errors/tool-validation-error.js';
import type { JsonSchema } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import { normalizeJsonSchema } from './normalize-schema.js';
import { propertiesOf } from './schema-utils.js';
import type { ToolParameters } from './types.js';

/** The model-visible JSON Schema of some parameters, plus the Standard Schema that validates them (if any). */
export interface ConvertedParameters {
  schema: JsonSchema;
  standard: StandardSchemaV1 | undefined;
}

/** True when `value` implements Standard Schema v1 (zod 4, valibot, arktype, …). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<StandardSchemaV1>)['~standard'];
  return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}

function isZod(value: object): value is z.core.$ZodType {
  return typeof (value as { _zod?: unknown })._zod === 'object';
}

function jsonSchemaConverter(value: StandardSchemaV1): StandardJSONSchemaV1.Converter | undefined {
  const converter = (value['~standard'] as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  return converter && typeof converter.input === 'function' ? converter : undefined;
}

/** zod → JSON Schema of the *input* (so defaults and `.optional()` are not required); dates become ISO strings. */
function zodToJsonSchema(schema: z.core.$ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: (ctx) => (ctx.zodSchema._zod.def.type === 'date' ? { type: 'string', format: 'date-time' } : 'any'),
  });
}

/**
 * Converts tool `parameters` (zod, any Standard Schema with JSON Schema support, or a JSON Schema
 * object) into the normalised, model-visible JSON Schema of an object (`type: 'object'`,
 * `properties`, `required`). Omitted parameters give an empty object schema.
 * Throws ToolValidationError when the parameters are not an object schema or cannot be converted.
 */
export function parametersToJsonSchema(parameters: ToolParameters | undefined, toolName?: string): ConvertedParameters {
  const fail = (message: string, issues: readonly ValidationIssue[] = [], cause?: unknown): never => {
    const where = toolName === undefined ? 'parameters' : `parameters of tool "${toolName}"`;
    throw new ToolValidationError(`Invalid ${where}: ${message}`, {
      ...(toolName === undefined ? {} : { toolName }),
      issues: issues.length > 0 ? issues : [{ path: [], message }],
      ...(cause === undefined ? {} : { cause }),
    });
  };
  let raw: unknown;
  let standard: StandardSchemaV1 | undefined;
  if (parameters === undefined) {
    raw = { type: 'object', properties: {} };
  } else if (isStandardSchema(parameters)) {
    standard = parameters;
    const converter = jsonSchemaConverter(parameters);
    try {
      if (isZod(parameters)) raw = zodToJsonSchema(parameters);
      else if (converter) raw = converter.input({ target: 'draft-2020-12' });
    } catch (error) {
      fail(`the schema cannot be converted to JSON Schema (${(error as Error).message})`, [], error);
    }
    if (raw === undefined) {
      fail(
        `this Standard Schema (vendor "${parameters['~standard'].vendor}") cannot produce a JSON Schema for the model; ` +
          'pass a JSON Schema object as parameters, or use a schema library that implements Standard JSON Schema (e.g. zod 4)',
      );
    }
  } else if (isPlainObject(parameters)) {
    raw = parameters;
  } else {
    fail('expected a zod schema, a Standard Schema or a JSON Schema object');
  }
  const problems: ValidationIssue[] = [];
  const schema = normalizeJsonSchema(raw, problems) as JsonSchema;
  const type = schema['type'];
  if (type === undefined && !('anyOf' in schema) && !('oneOf' in schema)) schema['type'] = 'object';
  if (schema['type'] !== 'object') {
    const got = type === undefined ? 'a union' : JSON.stringify(type);
    fail(`parameters must describe an object (type "object"), got ${got}`);
  }
  if (!isPlainObject(schema['properties'])) schema['properties'] = {};
  if (!Array.isArray(schema['required'])) schema['required'] = [];
  problems.push(...caseDuplicates(schema));
  if (problems.length > 0) fail(problems.map((p) => p.message).join('; '), problems);
  return { schema, standard };
}

/**
 * Parameter names that differ only by case (`city` and `City`) are rejected as duplicates: models
 * routinely change the case of names, so the two could not be told apart in a call, and the
 * did-you-mean matching (which is case-insensitive) would be ambiguous. JSON objects cannot hold
 * two identical keys, so this is the duplicate that can actually occur.
 */
function caseDuplicates(schema: JsonSchema): ValidationIssue[] {
  const seen = new Map<string, string>();
  const issues: ValidationIssue[] = [];
  for (const name of Object.keys(propertiesOf(schema))) {
    const key = name.toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) issues.push({ path: [name], message: `duplicate parameter "${name}" (differs from "${other}" only by case)` });
    else seen.set(key, name);
  }
  return issues;
}
