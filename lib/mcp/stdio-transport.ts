import type { ResultPromise } from 'execa';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MCPConnectionError } from '../core/errors/mcp-connection-error.js';
import type { ClientSdk } from './load-sdk.js';
import type { MCPStdioServerConfig } from './server-config.js';

/** Environment variables a stdio server inherits (the rest of the caller's environment, API keys included, is not passed on). */
export const INHERITED_ENV = process.platform === 'win32'
  ? ['APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES']
  : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR', 'LANG', 'NODE_OPTIONS'];

/** The most stderr text kept for error messages (the tail). */
const STDERR_KEEP = 4096;
/** How long a server gets to exit after its stdin closes, then after SIGTERM, before SIGKILL. */
const GRACE_MS = 2000;

interface SpawnOptions {
  stdin: 'pipe';
  stdout: 'pipe';
  stderr: 'pipe';
  buffer: false;
  reject: false;
  extendEnv: false;
  env: Record<string, string>;
  cwd?: string;
  detached: boolean;
  cleanup: true;
  windowsHide: true;
}
type Subprocess = ResultPromise<SpawnOptions>;

/** The command line of a stdio server as one string, quoted where needed (what a person is shown before it is spawned). */
export function commandLine(config: Pick<MCPStdioServerConfig, 'command' | 'args'>): string {
  const quote = (part: string): string => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", "'\\''")}'`);
  return [config.command, ...(config.args ?? [])].map(quote).join(' ');
}

/**
 * An MCP transport over a child process's stdin/stdout (newline-delimited JSON-RPC), spawned with
 * execa in its own process group. Its stderr is kept (the last 4 KB) for error messages; `close()`
 * ends stdin, then signals the whole process group (SIGTERM, then SIGKILL), so servers started
 * through `npx` or a shell do not outlive the client.
 */
export class ExecaStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #config: MCPStdioServerConfig;
  readonly #label: string;
  readonly #sdk: ClientSdk;
  readonly #buffer: InstanceType<ClientSdk['stdio']['ReadBuffer']>;
  #child: Subprocess | undefined;
  #stderr = '';
  #exit: string | undefined;
  #closing = false;
  readonly #inbox: JSONRPCMessage[] = [];
  #delivering = false;

  constructor(config: MCPStdioServerConfig, label: string, sdk: ClientSdk) {
    this.#config = config;
    this.#label = label;
    this.#sdk = sdk;
    this.#buffer = new sdk.stdio.ReadBuffer();
  }

  /** The last 4 KB the server wrote to stderr. */
  get stderr(): string {
    return this.#stderr;
  }

  /** How the process ended (`exited with code 1`, `killed by SIGKILL`), once it has. */
  get exit(): string | undefined {
    return this.#exit;
  }

  /** The process id, while it runs. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  async start(): Promise<void> {
    if (this.#child) throw new Error('the stdio transport is already started');
    const { execa } = await import('execa');
    const env: Record<string, string> = {};
    for (const key of INHERITED_ENV) {
      const value = process.env[key];
      if (value !== undefined && !value.startsWith('()')) env[key] = value;
    }
    Object.assign(env, this.#config.env);
    const options: SpawnOptions = {
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false,
      reject: false,
      extendEnv: false,
      env,
      ...(this.#config.cwd === undefined ? {} : { cwd: this.#config.cwd }),
      detached: process.platform !== 'win32',
      cleanup: true,
      windowsHide: true,
    };
    const child: Subprocess = execa(this.#config.command, this.#config.args ?? [], options);
    this.#child = child;
    child.stdout.on('data', (chunk: Buffer) => this.#onData(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-STDERR_KEEP);
    });
    child.stdin.on('error', (error) => this.onerror?.(error));
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => reject(error));
    });
    void child.then((result) => {
      this.#exit = result.signal !== undefined ? `killed by ${result.signal}` : result.exitCode !== undefined ? `exited with code ${result.exitCode}` : result.shortMessage;
      this.#child = undefined;
      if (!this.#closing) this.onclose?.();
    });
    try {
      await spawned;
    } catch (error) {
      this.#child = undefined;
      throw new MCPConnectionError(`Cannot start MCP server "${this.#label}" (${commandLine(this.#config)}): ${(error as Error).message}`, { server: this.#label, cause: error });
    }
  }

  #onData(chunk: Buffer): void {
    try {
      this.#buffer.append(chunk);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        this.onerror?.(new Error(`MCP server "${this.#label}" wrote a line that is not JSON-RPC: ${(error as Error).message}`));
        continue;
      }
      if (message === null) break;
      this.#inbox.push(message);
    }
    this.#deliver();
  }

  /**
   * Hands the messages read to the SDK in order. The SDK runs a notification's handler a microtask
   * later but settles a response at once (dropping the request's progress handler): a progress
   * notification read in the same chunk as the response it precedes would be lost. So after a
   * notification the rest waits one microtask, behind the notification's handler.
   */
  #deliver(): void {
    if (this.#delivering) return;
    while (this.#inbox.length > 0) {
      const message = this.#inbox.shift() as JSONRPCMessage;
      this.onmessage?.(message);
      if (!('id' in message) && this.#inbox.length > 0) {
        this.#delivering = true;
        queueMicrotask(() => {
          this.#delivering = false;
          this.#deliver();
        });
        return;
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (!child?.stdin.writable) return Promise.reject(new MCPConnectionError(`MCP server "${this.#label}" is not running`, { server: this.#label }));
    return new Promise((resolve, reject) => {
      const json = this.#sdk.stdio.serializeMessage(message);
      if (child.stdin.write(json)) resolve();
      else child.stdin.once('drain', resolve).once('error', reject);
    });
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (this.#closing) return;
    this.#closing = true;
    this.#buffer.clear();
    this.#inbox.length = 0;
    if (child) {
      const done = child.then(() => undefined);
      child.stdin.end();
      if (!(await settlesWithin(done, GRACE_MS))) {
        signalGroup(child, 'SIGTERM');
        if (!(await settlesWithin(done, GRACE_MS))) signalGroup(child, 'SIGKILL');
        await done;
      } else {
        // The leader exited; children it started in the group may not have: end them too.
        signalGroup(child, 'SIGTERM');
      }
    }
    this.onclose?.();
  }
}

function signalGroup(child: Subprocess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
