/**
 * Agent YAML files: validation with positioned errors, loading into an Agent, templates.
 */
export { ConfigFileError, formatConfigIssue, type ConfigIssue } from '../core/errors/config-file-error.js';
export { interpolate, type Interpolation } from './interpolate.js';
export { buildAgentConfig, createAgentFromConfig, loadAgent, type LoadAgentOptions } from './load-agent.js';
export { loadConfiguredTools, type LoadToolsOptions } from './load-tools.js';
export { findPackageRoot } from './package-root.js';
export { loadAgentConfig, parseAgentConfig } from './parse-agent-config.js';
export { parseYaml } from './parse-yaml.js';
export type { PolicySpec } from './policy-node.js';
export { describeAgentYaml, type AgentYamlKey } from './schema.js';
export { listTemplates, loadTemplate, templatePath, templatesDirectory, TEMPLATE_FILE, type TemplateOptions } from './templates.js';
export type { SourcePosition, ToolSourceRef } from './tool-sources.js';
export type {
  AgentConfigOptions,
  AgentFileConfig,
  GuardrailSettings,
  McpServerSettings,
  MemorySettings,
  ParseAgentConfigOptions,
  SessionSettings,
} from './types.js';
