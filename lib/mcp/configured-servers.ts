import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { McpServerSettings } from '../config/types.js';
import type { MCPServerEntry } from './multi-mcp-client.js';
import { commandLine } from './stdio-transport.js';

/** The client entries of an agent file's `mcp.servers` (relative `cwd` resolved against the file's directory). */
export function serverEntries(settings: readonly McpServerSettings[], baseDir: string): MCPServerEntry[] {
  return settings.map((s) => {
    const filter = s.tools === undefined ? {} : { tools: s.tools };
    if (s.transport === 'http') {
      if (s.url === undefined) throw new ConfigurationError(`MCP server "${s.name}" (http) needs "url"`);
      return { name: s.name, url: s.url, ...(s.headers === undefined ? {} : { headers: s.headers }), ...filter };
    }
    if (s.command === undefined) throw new ConfigurationError(`MCP server "${s.name}" (stdio) needs "command"`);
    return {
      name: s.name,
      command: s.command,
      ...(s.args === undefined ? {} : { args: s.args }),
      ...(s.env === undefined ? {} : { env: s.env }),
      ...(s.cwd === undefined ? {} : { cwd: isAbsolute(s.cwd) ? s.cwd : resolve(baseDir, s.cwd) }),
      ...filter,
    };
  });
}

/** What a person approves before a stdio server is spawned: the full command line, its directory and the names of the environment variables it is given. */
export function spawnDescription(entry: MCPServerEntry): string | undefined {
  if (!('command' in entry)) return undefined;
  const env = entry.env === undefined ? '' : ` (env: ${Object.keys(entry.env).join(', ')})`;
  const cwd = entry.cwd === undefined ? '' : ` in ${entry.cwd}`;
  return `${commandLine(entry)}${cwd}${env}`;
}

/** A digest of exactly what would be spawned (command, arguments, directory, environment values), so an edited command asks again. */
export function spawnFingerprint(entry: MCPServerEntry): string | undefined {
  if (!('command' in entry)) return undefined;
  const what = JSON.stringify([entry.command, entry.args ?? [], entry.cwd ?? null, Object.entries(entry.env ?? {}).sort()]);
  return createHash('sha256').update(what).digest('hex');
}

/**
 * The stdio commands a project's user approved (`.agentlib/mcp-trust.json` under the project
 * directory): `agentlib chat` records an approval there, and `agentlib chat` and `agentlib run` spawn an approved command
 * without asking again. An edited command (arguments, directory, environment) is a new command.
 */
export class McpTrustStore {
  readonly path: string;

  constructor(projectDir: string) {
    this.path = join(projectDir, '.agentlib', 'mcp-trust.json');
  }

  #read(): Record<string, string> {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
      const approved = (parsed as { approved?: unknown } | null)?.approved;
      if (typeof approved !== 'object' || approved === null || Array.isArray(approved)) return {};
      return Object.fromEntries(Object.entries(approved).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    } catch {
      return {};
    }
  }

  /** True when this exact stdio command was approved in this project. */
  isTrusted(entry: MCPServerEntry): boolean {
    const fingerprint = spawnFingerprint(entry);
    return fingerprint !== undefined && Object.hasOwn(this.#read(), fingerprint);
  }

  /** Records an approval of this exact command. */
  trust(entry: MCPServerEntry): void {
    const fingerprint = spawnFingerprint(entry);
    if (fingerprint === undefined) return;
    const approved = { ...this.#read(), [fingerprint]: spawnDescription(entry) ?? '' };
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ approved }, null, 2)}\n`);
    renameSync(temp, this.path);
  }
}
