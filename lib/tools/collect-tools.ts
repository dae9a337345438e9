import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import { isTool } from './tool.js';
import type { Tool } from './types.js';

/** One loaded tool and where it came from (for duplicate reports). */
export interface Found {
  tool: Tool;
  origin: string;
}

/**
 * The tools a module object exports: exported tools, tools inside exported arrays and, when
 * `scanDefault`, tools on a default-exported object (how CommonJS modules and `export default { … }` look).
 */
export function collectTools(moduleObject: object, origin: string, scanDefault: boolean): Found[] {
  const found: Found[] = [];
  const take = (value: unknown): void => {
    if (isTool(value)) found.push({ tool: value, origin });
    else if (Array.isArray(value)) for (const item of value as unknown[]) if (isTool(item)) found.push({ tool: item, origin });
  };
  for (const [key, value] of Object.entries(moduleObject)) {
    take(value);
    if (key === 'default' && scanDefault && typeof value === 'object' && value !== null && !isTool(value) && !Array.isArray(value)) {
      for (const inner of Object.values(value as object)) take(inner);
    }
  }
  return found;
}

/** The tools by name; the same object twice counts once, two different tools with one name throw ToolValidationError. */
export function uniqueTools(found: readonly Found[]): Tool[] {
  const byName = new Map<string, Found>();
  for (const item of found) {
    const seen = byName.get(item.tool.name);
    if (!seen) byName.set(item.tool.name, item);
    else if (seen.tool !== item.tool) {
      const where = seen.origin === item.origin ? `twice in ${item.origin}` : `in ${seen.origin} and in ${item.origin}`;
      throw new ToolValidationError(`Duplicate tool name "${item.tool.name}": defined ${where}`, { toolName: item.tool.name });
    }
  }
  return [...byName.values()].map((item) => item.tool);
}
