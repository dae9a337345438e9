import { Chalk } from 'chalk';
import { ExitCode } from '../cli/exit-codes.js';
import { writeJson, type CliIO } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import type { CheckResult, CheckStatus, DoctorEnvironment } from './doctor/check.js';
import { checkConfigFile } from './doctor/config-file.js';
import { checkNodeVersion } from './doctor/node-version.js';
import { checkProviderKeys } from './doctor/provider-keys.js';
import { checkProviders, probeTargets } from './doctor/provider-probes.js';
import { checkBackends } from './doctor/redis-postgres.js';
import { checkSqlite } from './doctor/sqlite.js';
import { checkTerminal } from './doctor/terminal.js';
import { checkTools } from './doctor/tools.js';
import { checkMcpServers } from './doctor/mcp-servers.js';

/** Default time limit of each network probe, in ms (`--timeout`). */
export const DEFAULT_DOCTOR_TIMEOUT_MS = 5000;

/** Options of {@link runChecks}. */
export interface DoctorOptions extends DoctorEnvironment {
  io: CliIO;
  /** `--agent <file>`; default `./agent.yaml` when it exists. */
  agent?: string | undefined;
  /** Colour allowed (`--no-color` makes it false). */
  colorFlag: boolean;
  /** `--trust-mcp`: start the agent file's stdio MCP servers for the handshake. */
  trustMcp?: boolean;
}

/** Runs every check: local ones first, then provider and backend probes in parallel. */
export async function runChecks(options: DoctorOptions): Promise<CheckResult[]> {
  const { env, cwd } = options;
  const config = await checkConfigFile({ cwd, env, agent: options.agent });
  const tools = await checkTools(config.config, config.label ?? '');
  const network = { timeoutMs: options.timeoutMs, signal: options.signal, offline: options.offline };
  const [providers, sqlite, backends, mcp] = await Promise.all([
    checkProviders(probeTargets(env, config.config), network),
    checkSqlite({ required: config.config?.session?.store === 'sqlite' }),
    checkBackends(env, config.config, network),
    checkMcpServers(config.config, { ...options, trust: options.trustMcp === true }),
  ]);
  return [checkNodeVersion(), checkTerminal(options.io, options.colorFlag), config.result, tools, ...mcp, checkProviderKeys(env, config.config), ...providers, sqlite, ...backends];
}

/**
 * The exit code of a report: 0 when no required check failed; 2 when the agent file is invalid or
 * missing, or its tools do not load, or a provider it names (or whose key variable is expected) has no API key — a
 * configuration error; otherwise 3 when a required check failed (runtime or provider failure).
 */
export function doctorExitCode(checks: readonly CheckResult[]): number {
  const failed = checks.filter((check) => check.status === 'fail');
  if (failed.length === 0) return ExitCode.OK;
  if (failed.some((check) => check.id === 'config' || check.id === 'tools' || check.data?.reason === 'missing-key')) return ExitCode.USAGE;
  return ExitCode.RUNTIME;
}

const SECRET_NAME = /api[_-]?key|token|secret|password|passwd|credential/i;

/**
 * Replaces the value of every secret-looking environment variable (`*_API_KEY`, tokens,
 * passwords) with `[redacted]`, wherever it appears: a last guard, since no check reports values.
 */
export function redactEnvSecrets<T>(value: T, env: Readonly<Record<string, string | undefined>>): T {
  const secrets = Object.entries(env)
    .filter(([name, secret]) => SECRET_NAME.test(name) && secret !== undefined && secret.trim().length >= 4)
    .map(([, secret]) => (secret as string).trim())
    .sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return value;
  const scrub = (item: unknown): unknown => {
    if (typeof item === 'string') return secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), item);
    if (Array.isArray(item)) return item.map(scrub);
    if (typeof item === 'object' && item !== null) return Object.fromEntries(Object.entries(item).map(([key, entry]) => [key, scrub(entry)]));
    return item;
  };
  return scrub(value) as T;
}

const GLYPHS: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: 'x', skip: '-' };

/** Counts by status. */
export function summarize(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const check of checks) counts[check.status]++;
  return counts;
}

/** The text report: one line per check (hints indented below), then a summary line. */
export function renderText(checks: readonly CheckResult[], color: boolean): string {
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const paint: Record<CheckStatus, (text: string) => string> = { ok: chalk.green, warn: chalk.yellow, fail: chalk.red, skip: chalk.dim };
  const lines: string[] = [];
  for (const check of checks) {
    const [first = '', ...rest] = check.detail.split('\n');
    lines.push(`${paint[check.status](GLYPHS[check.status])} ${chalk.bold(check.title)}: ${first}`);
    for (const line of rest) lines.push(`    ${line}`);
    if (check.hint !== undefined && check.status !== 'ok') lines.push(chalk.dim(`    hint: ${check.hint}`));
  }
  const counts = summarize(checks);
  const parts = [`${counts.ok} ok`, `${counts.warn} warning${counts.warn === 1 ? '' : 's'}`, `${counts.fail} failed`, `${counts.skip} skipped`];
  const verdict = counts.fail === 0 ? chalk.green('no problems with required checks') : chalk.red(`${counts.fail} required check${counts.fail === 1 ? '' : 's'} failed`);
  lines.push('', `${parts.join(', ')}: ${verdict}`);
  return `${lines.join('\n')}\n`;
}

function timeoutOption(value: unknown): number {
  if (value === undefined) return DEFAULT_DOCTOR_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new UsageError(`--timeout must be a positive number of milliseconds, got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value)}`);
  return Math.round(value);
}

/** `agentlib doctor`: checks the environment, the agent file and the providers; exit 0, 2 or 3. */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  const agent = typeof args.agent === 'string' && args.agent !== '' ? args.agent : undefined;
  const checks = await runChecks({
    io,
    env: io.env,
    cwd: io.cwd ?? process.cwd(),
    timeoutMs: timeoutOption(args.timeout),
    offline: args.offline === true,
    signal: context.signal,
    agent,
    colorFlag: args.color,
    trustMcp: args.trustMcp === true,
  });
  const safe = redactEnvSecrets(checks, io.env);
  const code = doctorExitCode(safe);
  if (args.json === true) writeJson(io, { ok: code === ExitCode.OK, exitCode: code, summary: summarize(safe), checks: safe });
  else io.stdout.write(renderText(safe, context.color));
  return context.signal.aborted ? ExitCode.INTERRUPTED : code;
}
