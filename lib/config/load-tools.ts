import { ConfigFileError, type ConfigIssue } from '../core/errors/config-file-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { ToolValidationError } from '../core/errors/tool-validation-error.js';
import { ToolLoader } from '../tools/loader.js';
import type { Tool } from '../tools/types.js';
import type { ToolSourceRef } from './tool-sources.js';
import type { AgentFileConfig } from './types.js';

/** Options of {@link loadConfiguredTools}. */
export interface LoadToolsOptions {
  /** Imports a module by file URL (default: dynamic `import()`); injected in tests. */
  importModule?: (url: string) => Promise<unknown>;
}

function loadOne(loader: ToolLoader, ref: ToolSourceRef): Promise<Tool[]> {
  switch (ref.kind) {
    case 'file':
      return ref.exportName === undefined ? loader.fromFile(ref.path) : loader.fromReference(`${ref.path}#${ref.exportName}`);
    case 'directory':
      return loader.fromDirectory(ref.path);
    case 'package':
      return loader.fromPackage(ref.exportName === undefined ? ref.specifier : `${ref.specifier}#${ref.exportName}`);
  }
}

/**
 * Imports the tools of a validated config, one `tools:` entry at a time. Every failure (missing
 * export, with a did-you-mean over the module's exports; a module that fails to import; no tools;
 * the same tool name from two entries) is collected and thrown as one ConfigFileError positioned
 * at the entry. TypeScript modules need a TS loader in the process (tsx).
 */
export async function loadConfiguredTools(config: AgentFileConfig, label: string, options: LoadToolsOptions = {}): Promise<Tool[]> {
  const loader = new ToolLoader({
    cwd: config.baseDir,
    recursive: config.toolConfig?.recursive ?? false,
    confineTo: config.baseDir,
    ...(options.importModule === undefined ? {} : { importModule: options.importModule }),
  });
  const issues: ConfigIssue[] = [];
  const byName = new Map<string, { tool: Tool; source: string }>();
  for (const [i, ref] of config.tools.entries()) {
    const at = { path: `tools[${i}]`, line: ref.position.line, col: ref.position.col };
    try {
      for (const loaded of await loadOne(loader, ref)) {
        const seen = byName.get(loaded.name);
        if (seen === undefined) byName.set(loaded.name, { tool: loaded, source: ref.source });
        else if (seen.tool !== loaded) issues.push({ ...at, message: `tool "${loaded.name}" from "${ref.source}" is also defined by "${seen.source}"`, hint: 'tool names must be unique' });
      }
    } catch (error) {
      if (!ConfigurationError.isInstance(error) && !ToolValidationError.isInstance(error)) throw error;
      const message = error.message.replace(/ — did you mean "[^"]*"\?/, '');
      issues.push({ ...at, message, ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }) });
    }
  }
  if (issues.length > 0) throw new ConfigFileError(label, issues);
  return [...byName.values()].map((entry) => entry.tool);
}
