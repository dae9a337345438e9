import { readFile, stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { ConfigFileError } from '../../lib/core/errors/config-file-error.js';
import { ConfigurationError } from '../../lib/core/errors/configuration-error.js';
import { parseAgentConfig } from '../../lib/config/parse-agent-config.js';
import type { AgentFileConfig } from '../../lib/config/types.js';
import type { ProviderConfig, ProviderSpec } from '../../lib/providers/create-provider.js';
import { checkResult, type CheckResult } from './check.js';

/** The file doctor validates when `--agent` is not given (only if it exists). */
export const DEFAULT_AGENT_FILE = 'agent.yaml';

/** The outcome of the config check, and the validated config when it is valid. */
export interface ConfigCheck {
  result: CheckResult;
  config?: AgentFileConfig;
  /** The file as named in messages (the --agent value, or the path relative to the working directory). */
  label?: string;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The provider entries of a config's `provider:` (a name, an object or a list). */
export function providerEntries(spec: ProviderSpec | undefined): ProviderConfig[] {
  if (spec === undefined) return [];
  const list = (Array.isArray(spec) ? spec : [spec]) as readonly (string | ProviderConfig)[];
  return list.map((entry) => (typeof entry === 'string' ? ({ type: entry } as ProviderConfig) : entry));
}

function summary(config: AgentFileConfig): string {
  const providers = providerEntries(config.provider).map((entry) => `${entry.name ?? entry.type}${entry.model === undefined ? '' : ` (${entry.model})`}`);
  const parts = [
    providers.length === 0 ? 'no provider' : `provider ${providers.join(' → ')}`,
    ...(config.model === undefined ? [] : [`model ${config.model}`]),
    `${config.tools.length} tool source${config.tools.length === 1 ? '' : 's'}`,
  ];
  return parts.join(', ');
}

/**
 * Finds and validates the agent file: `--agent <file>` (required), else `./agent.yaml` when it
 * exists (then required too), else a skip. Problems come back as `file:line:col: …` lines. Tool
 * modules are imported by the next check (./tools.ts); no provider is created.
 */
export async function checkConfigFile(options: { cwd: string; env: Readonly<Record<string, string | undefined>>; agent?: string | undefined }): Promise<ConfigCheck> {
  const explicit = options.agent !== undefined;
  const path = resolve(options.cwd, options.agent ?? DEFAULT_AGENT_FILE);
  const rel = relative(options.cwd, path);
  const shown = options.agent ?? (rel === '' || rel.startsWith('..') ? path : rel);
  const base = { id: 'config', title: 'Agent config' } as const;
  if (!(await isFile(path))) {
    if (!explicit) {
      return { result: checkResult({ ...base, status: 'skip', required: false, detail: `no ${DEFAULT_AGENT_FILE} in ${options.cwd}`, hint: 'pass --agent <file> to validate an agent file' }) };
    }
    return { result: checkResult({ ...base, status: 'fail', required: true, detail: `${shown}: file not found`, hint: 'check the path given to --agent', data: { path } }) };
  }
  try {
    const text = await readFile(path, 'utf8');
    const config = parseAgentConfig(text, { env: options.env, source: shown, baseDir: dirname(path) });
    return { result: checkResult({ ...base, status: 'ok', required: true, detail: `${shown}: valid (${summary(config)})`, data: { path } }), config: { ...config, source: path }, label: shown };
  } catch (error) {
    if (ConfigFileError.isInstance(error)) {
      return {
        result: checkResult({
          ...base,
          status: 'fail',
          required: true,
          detail: error.message,
          hint: `fix ${error.issues.length === 1 ? 'this problem' : `these ${error.issues.length} problems`} in ${shown}`,
          data: { path, issues: error.issues.map((issue) => ({ ...issue })) },
        }),
      };
    }
    if (ConfigurationError.isInstance(error) || error instanceof Error) {
      return { result: checkResult({ ...base, status: 'fail', required: true, detail: `${shown}: ${error.message}`, data: { path } }) };
    }
    throw error;
  }
}
