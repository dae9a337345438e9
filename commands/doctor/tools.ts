import { loadConfiguredTools } from '../../lib/config/load-tools.js';
import { ConfigFileError } from '../../lib/core/errors/config-file-error.js';
import { ConfigurationError } from '../../lib/core/errors/configuration-error.js';
import type { AgentFileConfig } from '../../lib/config/types.js';
import { checkResult, type CheckResult } from './check.js';

const NOT_FOUND = /Cannot find (?:module|package) '([^']+)'/;

/** How to fix a tool module that does not load. */
function hintFor(message: string): string {
  const missing = NOT_FOUND.exec(message)?.[1];
  if (missing === 'agentlib' || missing?.startsWith('agentlib/') === true) {
    return 'agentlib does not resolve from the agent\'s folder: install it in the project from a checkout or a packed tarball (npm install <agentlib checkout, or the agentlib-*.tgz `npm pack` makes in it>); it is not on the npm registry';
  }
  if (missing !== undefined) {
    return `a tool module imports "${missing}", which does not resolve from the agent's folder: install it there (npm install ${missing.startsWith('.') ? '…' : missing}), or import it through agentlib`;
  }
  return '`agentlib run` imports these modules the same way and would fail: fix them first';
}

/**
 * Imports the agent's tools exactly as `agentlib run` does (the config's `tools:` entries, TypeScript
 * through tsx), so doctor never approves an agent whose tools cannot load: a module that fails to
 * import, imports a package that is not installed, or exports no tools is a failure (exit 2). Skipped
 * when there is no valid agent file.
 */
export async function checkTools(config: AgentFileConfig | undefined, label: string): Promise<CheckResult> {
  const base = { id: 'tools', title: 'Agent tools', required: true } as const;
  if (config === undefined) return checkResult({ ...base, status: 'skip', required: false, detail: 'no valid agent file to load tools from' });
  if (config.tools.length === 0) return checkResult({ ...base, status: 'ok', detail: 'the agent has no tools' });
  try {
    const tools = await loadConfiguredTools(config, label);
    const names = tools.map((tool) => tool.name);
    return checkResult({ ...base, status: 'ok', detail: `${names.length} tool${names.length === 1 ? '' : 's'} loaded: ${names.join(', ')}`, data: { tools: names } });
  } catch (error) {
    if (!ConfigFileError.isInstance(error) && !ConfigurationError.isInstance(error) && !(error instanceof Error)) throw error;
    const message = (error as Error).message;
    const issues = ConfigFileError.isInstance(error) ? error.issues.map((issue) => ({ ...issue })) : undefined;
    return checkResult({ ...base, status: 'fail', detail: message, hint: hintFor(message), data: issues === undefined ? {} : { issues } });
  }
}
