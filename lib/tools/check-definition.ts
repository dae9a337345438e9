import { ToolValidationError, type ValidationIssue } from '../core/errors/tool-validation-error.js';
import { closestMatch } from '../core/suggest.js';
import type { ToolOptions } from './types.js';

/** Tool names: an identifier (letters, digits, `_`, not starting with a digit), 1–64 characters. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest tool name. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** Shortest description (after trimming). */
export const MIN_DESCRIPTION_LENGTH = 10;
/** Longest description (after trimming). */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** Default `cacheTtl` in seconds. */
export const DEFAULT_CACHE_TTL = 300;

/** Options with their defaults applied. */
export type ResolvedToolOptions = Required<ToolOptions>;

const OPTION_KEYS = ['screenOutput', 'terminal', 'requiresApproval', 'cacheable', 'cacheTtl'] as const;
const DEFINITION_KEYS = ['name', 'description', 'parameters', 'execute', ...OPTION_KEYS];
/** Keys other libraries use for the same thing; silently ignoring them would drop the parameters or the code. */
const ALIASES: Record<string, string> = {
  params: 'parameters',
  schema: 'parameters',
  inputSchema: 'parameters',
  input_schema: 'parameters',
  args: 'parameters',
  handler: 'execute',
  fn: 'execute',
  func: 'execute',
  function: 'execute',
};

function fail(message: string, toolName: string | undefined, suggestion?: string, issues?: ValidationIssue[]): never {
  throw new ToolValidationError(message, {
    ...(toolName === undefined ? {} : { toolName }),
    issues: issues ?? [{ path: [], message }],
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

/** Checks a tool name; throws ToolValidationError with the reason. */
export function checkToolName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name === '') fail('A tool needs a name (a non-empty string)', undefined);
  if (name.length > MAX_TOOL_NAME_LENGTH) fail(`Tool name "${name}" is ${name.length} characters long; the limit is ${MAX_TOOL_NAME_LENGTH}`, name);
  if (!TOOL_NAME_PATTERN.test(name)) {
    fail(`Tool name "${name}" is not an identifier: use letters, digits and "_", not starting with a digit`, name);
  }
}

/** Checks a whole definition object (name, description, execute, option types, misspelled keys). */
export function checkDefinition(definition: unknown): asserts definition is Record<string, unknown> & { name: string; description: string } {
  if (typeof definition !== 'object' || definition === null) {
    fail('tool() expects a definition object: { name, description, parameters, execute }', undefined);
  }
  const def = definition as Record<string, unknown>;
  checkToolName(def['name']);
  const name = def['name'];
  const description = def['description'];
  if (typeof description !== 'string' || description.trim() === '') fail(`Tool "${name}" needs a description (${MIN_DESCRIPTION_LENGTH}–${MAX_DESCRIPTION_LENGTH} characters)`, name);
  const length = description.trim().length;
  if (length < MIN_DESCRIPTION_LENGTH || length > MAX_DESCRIPTION_LENGTH) {
    fail(`The description of tool "${name}" is ${length} characters long; it must be ${MIN_DESCRIPTION_LENGTH}–${MAX_DESCRIPTION_LENGTH}`, name);
  }
  if (typeof def['execute'] !== 'function') fail(`Tool "${name}" needs an execute function`, name);
  for (const key of Object.keys(def)) {
    if (DEFINITION_KEYS.includes(key)) continue;
    const match = Object.hasOwn(ALIASES, key) ? ALIASES[key] : closestMatch(key, DEFINITION_KEYS);
    // Unrelated extra keys are tolerated (wrappers may carry metadata); near misses are typos.
    if (match !== undefined) fail(`Unknown option "${key}" for tool "${name}" — did you mean "${match}"?`, name, match);
  }
  resolveOptions(def, name);
}

/** Checks option types and applies defaults (`false` switches, `cacheTtl` 300 s). */
export function resolveOptions(options: ToolOptions | Record<string, unknown>, toolName: string, base?: ResolvedToolOptions): ResolvedToolOptions {
  const source = options as Record<string, unknown>;
  const flags = { screenOutput: false, terminal: false, requiresApproval: false, cacheable: false, ...pickFlags(base) };
  for (const key of ['screenOutput', 'terminal', 'requiresApproval', 'cacheable'] as const) {
    const value = source[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') fail(`Option "${key}" of tool "${toolName}" must be a boolean, got ${typeof value}`, toolName);
    flags[key] = value;
  }
  const ttl = source['cacheTtl'] ?? base?.cacheTtl ?? DEFAULT_CACHE_TTL;
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    fail(`Option "cacheTtl" of tool "${toolName}" must be a number of seconds > 0, got ${typeof ttl === 'number' ? ttl : (JSON.stringify(ttl) ?? typeof ttl)}`, toolName);
  }
  return { ...flags, cacheTtl: ttl };
}

function pickFlags(base: ResolvedToolOptions | undefined): Partial<ResolvedToolOptions> {
  if (!base) return {};
  const { screenOutput, terminal, requiresApproval, cacheable } = base;
  return { screenOutput, terminal, requiresApproval, cacheable };
}
