import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigFileError, type ConfigIssue } from '../../../lib/core/errors/config-file-error.js';

const toolModule = pathToFileURL(join(import.meta.dirname, '../../../lib/tools/tool.ts')).href;

/** Source of a module exporting tools named `names` (each returns `<name>:<args JSON>`). */
export function toolsSource(...names: string[]): string {
  return [
    `import { tool } from ${JSON.stringify(toolModule)};`,
    ...names.map(
      (name) =>
        `export const ${name} = tool({ name: '${name}', description: 'A tool for config tests', parameters: { type: 'object', properties: { q: { type: 'string' } } }, execute: (args) => '${name}:' + JSON.stringify(args) });`,
    ),
    'export const notATool = 42;',
  ].join('\n');
}

/** A temporary project directory with files (relative path → content); `cleanup()` removes it. */
export async function tempProject(files: Record<string, string>): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'agentlib-config-')));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs `fn`, expecting a ConfigFileError; returns its issues. */
export function issuesOf(fn: () => unknown): ConfigIssue[] {
  try {
    fn();
  } catch (error) {
    if (ConfigFileError.isInstance(error)) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigFileError');
}

/** Awaits `promise`, expecting a ConfigFileError; returns it. */
export async function rejectsWithConfigFileError(promise: Promise<unknown>): Promise<ConfigFileError> {
  try {
    await promise;
  } catch (error) {
    if (ConfigFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigFileError');
}

/** `line:col message` of each issue, for compact assertions. */
export function brief(issues: readonly ConfigIssue[]): string[] {
  return issues.map((issue) => `${issue.line}:${issue.col} ${issue.message}${issue.suggestion === undefined ? '' : ` → ${issue.suggestion}`}`);
}
