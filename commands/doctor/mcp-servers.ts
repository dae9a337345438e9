import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { AgentFileConfig } from '../../lib/config/types.js';
import { checkResult, type CheckResult, type DoctorEnvironment } from './check.js';

/** Where `command` would be found (PATH lookup like a shell), or undefined. */
export function findExecutable(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  const runnable = (path: string): boolean => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (isAbsolute(command) || command.includes('/') || command.includes('\\')) {
    const path = resolve(cwd, command);
    return runnable(path) ? path : undefined;
  }
  const extensions = process.platform === 'win32' ? (env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) if (runnable(join(dir, command + ext))) return join(dir, command + ext);
  }
  return undefined;
}

/**
 * One check per MCP server of the agent file (optional: a failing server's tools are left out of a
 * run, not fatal). A stdio server: its command must be found; it is started for the handshake only
 * with `--trust-mcp` or when this exact command was approved in the project (doctor never runs an
 * unapproved command). An HTTP server: the handshake (skipped with --offline). Either way the
 * result names the tool count.
 */
export async function checkMcpServers(config: AgentFileConfig | undefined, environment: DoctorEnvironment & { trust: boolean }): Promise<CheckResult[]> {
  const servers = config?.mcp?.servers ?? [];
  if (config === undefined || servers.length === 0) return [];
  const [{ serverEntries, spawnDescription, McpTrustStore }, { MCPClient }] = await Promise.all([import('../../lib/mcp/configured-servers.js'), import('../../lib/mcp/mcp-client.js')]);
  const store = new McpTrustStore(environment.cwd);
  return Promise.all(
    serverEntries(servers, config.baseDir).map(async (entry): Promise<CheckResult> => {
      const base = { id: `mcp:${entry.name}`, title: `MCP server ${entry.name}`, required: false } as const;
      const description = spawnDescription(entry);
      if ('command' in entry) {
        const found = findExecutable(entry.command, { ...environment.env, PATH: environment.env['PATH'] ?? process.env['PATH'] }, entry.cwd ?? config.baseDir);
        if (found === undefined) return checkResult({ ...base, status: 'fail', detail: `command not found: ${description ?? entry.command}`, hint: `install ${entry.command} or fix "command" in the agent file` });
        if (!environment.trust && !store.isTrusted(entry)) {
          return checkResult({ ...base, status: 'warn', detail: `not started (not approved in this project): ${description ?? ''}`, hint: 'pass --trust-mcp to start it for the handshake, or approve it once in agentlib chat', data: { command: found } });
        }
      } else if (environment.offline) {
        return checkResult({ ...base, status: 'skip', detail: 'not contacted (--offline)' });
      }
      const { name: _name, tools: _tools, ...location } = entry;
      const client = new MCPClient({ ...location, name: entry.name }, {
        connectTimeoutMs: environment.timeoutMs,
        callTimeoutMs: environment.timeoutMs,
        reconnect: false,
        ...(entry.tools === undefined ? {} : { tools: entry.tools }),
      });
      const started = performance.now();
      try {
        const tools = await client.listTools();
        const ms = Math.round(performance.now() - started);
        const info = client.serverInfo;
        return checkResult({
          ...base,
          status: 'ok',
          detail: `${info === undefined ? 'handshake' : `${info.name} ${info.version}`} over ${client.protocol ?? '?'}, ${tools.length} tool${tools.length === 1 ? '' : 's'} (${ms} ms)`,
          data: { tools: tools.map((t) => t.name), protocol: client.protocol, latencyMs: ms },
        });
      } catch (error) {
        return checkResult({ ...base, status: 'fail', detail: (error as Error).message, hint: 'a run would leave this server’s tools out' });
      } finally {
        await client.close();
      }
    }),
  );
}
