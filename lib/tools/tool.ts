import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonSchema } from '../core/json.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import { checkDefinition, resolveOptions, type ResolvedToolOptions } from './check-definition.js';
import { invokeExecute } from './invoke.js';
import { cloneJson } from './normalize-schema.js';
import { parametersToJsonSchema } from './to-json-schema.js';
import type { InferToolArgs, Tool, ToolArgsResult, ToolContext, ToolDefinition, ToolOptions, ToolOutput, ToolParameters } from './types.js';
import { validateToolArgs } from './validate-args.js';

/** The brand every tool carries (a registered symbol, so it works across copies of the package). */
export const TOOL_BRAND: unique symbol = Symbol.for('agentlib.tool');

/** What a tool is made of, shared between a tool and its `withOptions` copies. */
interface ToolCore {
  name: string;
  description: string;
  parameters: JsonSchema;
  standard: StandardSchemaV1 | undefined;
  execute: (args: never, ctx: ToolContext<never>) => unknown;
}

class DefinedTool<A, C> implements Tool<A, C> {
  readonly [TOOL_BRAND] = true;
  readonly #core: ToolCore;
  readonly screenOutput: boolean;
  readonly terminal: boolean;
  readonly requiresApproval: boolean;
  readonly cacheable: boolean;
  readonly cacheTtl: number;

  constructor(core: ToolCore, options: ResolvedToolOptions) {
    this.#core = core;
    this.screenOutput = options.screenOutput;
    this.terminal = options.terminal;
    this.requiresApproval = options.requiresApproval;
    this.cacheable = options.cacheable;
    this.cacheTtl = options.cacheTtl;
    Object.freeze(this);
  }

  get name(): string {
    return this.#core.name;
  }

  get description(): string {
    return this.#core.description;
  }

  get parameters(): JsonSchema {
    return this.#core.parameters;
  }

  validateArgs(raw: unknown): Promise<ToolArgsResult<A>> {
    return validateToolArgs<A>({ schema: this.#core.parameters, standard: this.#core.standard, toolName: this.#core.name }, raw);
  }

  invoke(args: A, ctx: ToolContext<C>, onChunk?: (chunk: string) => void): Promise<ToolOutput> {
    const execute = this.#core.execute as unknown as (args: A, ctx: ToolContext<C>) => unknown;
    return invokeExecute(execute, args, ctx, onChunk);
  }

  toSpec(): ProviderToolSpec {
    return { name: this.#core.name, description: this.#core.description, parameters: cloneJson(this.#core.parameters) };
  }

  withOptions(options: ToolOptions): Tool<A, C> {
    return new DefinedTool<A, C>(this.#core, resolveOptions(options, this.#core.name, this));
  }

  toJSON(): ProviderToolSpec & ResolvedToolOptions {
    const { screenOutput, terminal, requiresApproval, cacheable, cacheTtl } = this;
    return { ...this.toSpec(), screenOutput, terminal, requiresApproval, cacheable, cacheTtl };
  }
}

/**
 * Defines a tool. Everything is checked now, at definition time, and problems throw
 * ToolValidationError: the name (identifier, 1–64 characters), the description (10–1024
 * characters), `execute` (a function), `parameters` (an object schema: zod, a Standard Schema that
 * can produce JSON Schema, or a JSON Schema object whose `required` names are all declared) and
 * the options (`cacheTtl` > 0 seconds, default 300).
 *
 * @example
 * const weather = tool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   parameters: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
 *   execute: async ({ city, unit }, ctx) => fetchWeather(city, unit, { signal: ctx.signal }),
 * });
 */
export function tool<P extends ToolParameters = JsonSchema, C = unknown>(definition: ToolDefinition<P, C>): Tool<InferToolArgs<P>, C> {
  checkDefinition(definition);
  const { schema, standard } = parametersToJsonSchema(definition.parameters, definition.name);
  const core: ToolCore = {
    name: definition.name,
    description: definition.description.trim(),
    parameters: schema,
    standard,
    execute: definition.execute,
  };
  return new DefinedTool<InferToolArgs<P>, C>(core, resolveOptions(definition, definition.name));
}

/** True when `value` is a tool made by `tool()` (from any copy of agentlib). */
export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as { [TOOL_BRAND]?: unknown })[TOOL_BRAND] === true;
}
