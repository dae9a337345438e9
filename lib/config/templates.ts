import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Agent } from '../agent/agent.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { closestMatch } from '../core/suggest.js';
import { loadAgent, type LoadAgentOptions } from './load-agent.js';
import { findPackageRoot } from './package-root.js';

/** The template file inside each template folder. */
export const TEMPLATE_FILE = 'agent.yaml';

/** Where templates are looked up. */
export interface TemplateOptions {
  /** A directory of `<name>/agent.yaml` folders. Default `<agentlib package root>/templates`. */
  templatesDir?: string;
}

/** The templates directory: `options.templatesDir`, or `templates/` at the package root. */
export function templatesDirectory(options: TemplateOptions = {}): string {
  if (options.templatesDir !== undefined) return options.templatesDir;
  const root = findPackageRoot();
  if (root === undefined) throw new ConfigurationError('cannot find the agentlib package root to look up templates; pass templatesDir');
  return join(root, 'templates');
}

/** Names of the available templates (folders holding an `agent.yaml`), sorted. */
export function listTemplates(options: TemplateOptions = {}): string[] {
  const dir = templatesDirectory(options);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, TEMPLATE_FILE)))
    .map((entry) => entry.name)
    .sort();
}

/** The absolute path of a template's `agent.yaml`; an unknown name is a ConfigurationError with a did-you-mean. */
export function templatePath(name: string, options: TemplateOptions = {}): string {
  const names = listTemplates(options);
  if (names.includes(name)) return join(templatesDirectory(options), name, TEMPLATE_FILE);
  const suggestion = closestMatch(name, names);
  const did = suggestion === undefined ? '' : ` — did you mean "${suggestion}"?`;
  throw new ConfigurationError(`unknown template "${name}"${did} (available: ${names.join(', ') || 'none'})`, {
    key: 'template',
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

/**
 * Builds an Agent from a bundled template (the spec's `load_template(name, provider=...)`):
 * `customer_support`, `data_analyst`, `research_assistant`, `code_reviewer`, `rag_chatbot`.
 *
 * @example
 * const agent = await loadTemplate('customer_support', { provider: 'anthropic' });
 */
export function loadTemplate(name: string, options: LoadAgentOptions & TemplateOptions = {}): Promise<Agent> {
  return loadAgent(templatePath(name, options), options);
}
