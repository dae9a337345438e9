import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import { closestMatch } from '../core/suggest.js';
import type { JsonSchema } from '../core/json.js';
import type { ProviderToolSpec } from '../providers/spec.js';
import { isTool, tool } from './tool.js';
import type { Tool, ToolDefinition, ToolOptions, ToolParameters } from './types.js';

/** Any tool, whatever its argument and context types. */
type AnyTool = Tool<unknown, unknown>;
/** What `register`, `add` and `replace` accept: a tool, or a definition to pass to `tool()`. */
type ToolLike<P extends ToolParameters, C> = AnyTool | Tool<unknown, C> | ToolDefinition<P, C>;

const OPTION_KEYS = ['screenOutput', 'terminal', 'requiresApproval', 'cacheable', 'cacheTtl'] as const;

function definedOptions(options: ToolOptions | undefined): ToolOptions | undefined {
  if (!options) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of OPTION_KEYS) if (options[key] !== undefined) out[key] = options[key];
  return Object.keys(out).length > 0 ? out : undefined;
}

function asTool<P extends ToolParameters, C>(value: ToolLike<P, C>, options?: ToolOptions): Tool {
  const overrides = definedOptions(options);
  if (isTool(value)) return overrides ? value.withOptions(overrides) : value;
  if (typeof value !== 'object' || value === null) {
    throw new ToolValidationError(`Expected a tool (made with tool({...})) or a tool definition, got ${value === null ? 'null' : typeof value}`);
  }
  return tool({ ...(value as ToolDefinition<P, C>), ...overrides }) as Tool;
}

/**
 * An ordered set of tools keyed by name (iteration order = insertion order; `replace` keeps the
 * position). Names are unique: adding a second tool with a taken name throws ToolValidationError.
 * Options given to `register` override the tool's own and are forwarded to the stored copy.
 */
export class ToolRegistry implements Iterable<Tool> {
  readonly #tools = new Map<string, Tool>();

  /** Creates a registry holding `tools` (duplicates rejected). */
  constructor(tools: Iterable<AnyTool> = []) {
    this.addAll(tools);
  }

  /**
   * Adds a tool or a tool definition (checked like `tool()`); `options` (screenOutput, terminal,
   * requiresApproval, cacheable, cacheTtl) override the tool's own. Returns the stored tool.
   */
  register<P extends ToolParameters = JsonSchema, C = unknown>(toolOrDefinition: ToolLike<P, C>, options?: ToolOptions): Tool {
    const added = asTool(toolOrDefinition, options);
    this.#assertFree(added.name);
    this.#tools.set(added.name, added);
    return added;
  }

  /** Adds a tool (or definition); throws ToolValidationError when its name is taken. */
  add<P extends ToolParameters = JsonSchema, C = unknown>(toolOrDefinition: ToolLike<P, C>): this {
    this.register(toolOrDefinition);
    return this;
  }

  /** Adds several tools (made with `tool()`), all or nothing: a duplicate (within `tools` or with the registry) adds none. */
  addAll(tools: Iterable<AnyTool>): this {
    const batch = [...tools].map((item) => asTool(item));
    const names = new Set<string>();
    for (const item of batch) {
      this.#assertFree(item.name);
      if (names.has(item.name)) throw duplicate(item.name, 'appears twice in the batch');
      names.add(item.name);
    }
    for (const item of batch) this.#tools.set(item.name, item);
    return this;
  }

  /** Adds the tool, or swaps it in place of the tool with the same name. Returns the replaced tool, if any. */
  replace<P extends ToolParameters = JsonSchema, C = unknown>(toolOrDefinition: ToolLike<P, C>, options?: ToolOptions): Tool | undefined {
    const next = asTool(toolOrDefinition, options);
    const previous = this.#tools.get(next.name);
    this.#tools.set(next.name, next);
    return previous;
  }

  /** The tool called `name`, if registered. */
  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  /** Like `get`, but throws ToolValidationError (with a did-you-mean suggestion) when missing. */
  require(name: string): Tool {
    const found = this.#tools.get(name);
    if (found) return found;
    const suggestion = closestMatch(name, [...this.#tools.keys()]);
    const hint = suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`;
    throw new ToolValidationError(`No tool named "${name}"${hint}`, { toolName: name, ...(suggestion === undefined ? {} : { suggestion }) });
  }

  /** True when a tool called `name` is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** Removes the tool called `name`; false when there was none. */
  remove(name: string): boolean {
    return this.#tools.delete(name);
  }

  /** Removes every tool. */
  clear(): void {
    this.#tools.clear();
  }

  /** The tools, in insertion order. */
  list(): Tool[] {
    return [...this.#tools.values()];
  }

  /** The tool names, in insertion order. */
  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** Provider-facing specs of every tool, in insertion order. */
  specs(): ProviderToolSpec[] {
    return this.list().map((item) => item.toSpec());
  }

  /** How many tools are registered. */
  get size(): number {
    return this.#tools.size;
  }

  /** Iterates the tools in insertion order. */
  [Symbol.iterator](): Iterator<Tool> {
    return this.#tools.values();
  }

  #assertFree(name: string): void {
    if (this.#tools.has(name)) throw duplicate(name, 'is already registered (use replace() to swap it)');
  }
}

function duplicate(name: string, why: string): ToolValidationError {
  return new ToolValidationError(`Duplicate tool name: a tool named "${name}" ${why}`, { toolName: name });
}
