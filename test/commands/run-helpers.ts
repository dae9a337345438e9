import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { execa } from 'execa';
import { binPath, ensureCliBuilt, repoRoot } from '../support/cli-build.js';
import { recordedResponses, sseResponse, startReplayServer, type ReplayServer } from '../support/replay-server.js';

/** The recorded gpt-4o-mini tool round trip the calculator example answers with. */
export const CALCULATOR_RECORDING = 'openai/chat.tool_call.roundtrip.stream.simonw-llm.interactions.json';
export const QUESTION = 'What is 1231 * 2331?';
export const ANSWER = 'The result of \\( 1231 \\times 2331 \\) is \\( 2,869,461 \\).';

/**
 * A scratch project: a copy of examples/calculator in a temp dir (the run's cwd), with agentlib and
 * zod "installed" (symlinked into its node_modules) as in a user's project.
 */
export function scratchProject(): { dir: string; agent: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-run-'));
  cpSync(join(repoRoot, 'examples', 'calculator'), join(dir, 'calculator'), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repoRoot, join(dir, 'node_modules', 'agentlib'), 'dir');
  symlinkSync(join(repoRoot, 'node_modules', 'zod'), join(dir, 'node_modules', 'zod'), 'dir');
  return { dir, agent: join(dir, 'calculator', 'agent.yaml'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A scratch project (see {@link scratchProject}). */
export type ScratchProject = ReturnType<typeof scratchProject>;

/**
 * Hooks of a suite that spawns the built CLI: before it, the CLI is built (if stale), a replay
 * server started and a scratch project made; after it, both are cleaned up. Read `server` and
 * `project` inside tests.
 */
export function cliSuite(): { readonly server: ReplayServer; readonly project: ScratchProject } {
  const made: { server?: ReplayServer; project?: ScratchProject } = {};
  before(async () => {
    ensureCliBuilt();
    made.server = await startReplayServer();
    made.project = scratchProject();
  });
  after(async () => {
    await made.server?.close();
    made.project?.cleanup();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`cliSuite: no ${what} outside the suite's tests`);
    return value;
  };
  return {
    get server() {
      return need(made.server, 'replay server');
    },
    get project() {
      return need(made.project, 'project');
    },
  };
}

/** Queues the calculator's two recorded responses. */
export function enqueueCalculator(server: ReplayServer): void {
  server.enqueue(...recordedResponses(CALCULATOR_RECORDING).map((r) => sseResponse(r.body ?? '', 11)));
}

/** Environment of a spawned CLI: OpenAI pointed at the replay server (or nowhere), no colour, CI. */
export function cliEnv(server: ReplayServer | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-test-not-a-real-key',
    // with no server: a closed port, so any network attempt fails at once
    OPENAI_BASE_URL: server === undefined ? 'http://127.0.0.1:9/v1' : `${server.url}/v1`,
    CI: 'true',
    NO_COLOR: '1',
    ...extra,
  };
}

/** A finished CLI run. */
export interface CliRun {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** A running CLI process: await it for the result, or signal it. */
export type CliProcess = Promise<CliRun> & { kill: (signal?: NodeJS.Signals) => boolean };

/** Spawns the built `agentlib` (never throws on a non-zero exit). */
export function agentlib(args: readonly string[], options: { cwd: string; env: Record<string, string>; input?: string }): CliProcess {
  const child = execa(process.execPath, [binPath, ...args], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    timeout: 30_000,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
  });
  return child as unknown as CliProcess;
}
