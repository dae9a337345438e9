export type {
  InferToolArgs,
  Tool,
  ToolArgsResult,
  ToolContext,
  ToolDefinition,
  ToolOptions,
  ToolOutput,
  ToolParameters,
  ToolReturn,
} from './types.js';
export { isTool, tool, TOOL_BRAND } from './tool.js';
export {
  DEFAULT_CACHE_TTL,
  MAX_DESCRIPTION_LENGTH,
  MAX_TOOL_NAME_LENGTH,
  MIN_DESCRIPTION_LENGTH,
  TOOL_NAME_PATTERN,
  checkToolName,
} from './check-definition.js';
export { isStandardSchema, parametersToJsonSchema, type ConvertedParameters } from './to-json-schema.js';
export { normalizeJsonSchema } from './normalize-schema.js';
export { validateJsonSchema } from './validate-json-schema.js';
export { validateToolArgs, type ArgsSchema } from './validate-args.js';
export { serializeToolResult, CIRCULAR_MARKER } from './serialize.js';
export { ToolRegistry } from './registry.js';
export { isBareSpecifier, resolvePackageEntry } from './resolve-package.js';
export { ToolLoader, loadTools, TOOL_FILE_EXTENSIONS, type ToolLoaderOptions, type ToolSource } from './loader.js';
