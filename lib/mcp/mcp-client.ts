import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCPConnectionError } from '../core/errors/mcp-connection-error.js';
import { MCPError } from '../core/errors/mcp-error.js';
import { MCPToolError } from '../core/errors/mcp-tool-error.js';
import { linkSignals } from '../core/linked-signal.js';
import { sleep as realSleep, type Sleep } from '../core/sleep.js';
import { compileGlob } from '../safety/glob.js';
import type { Tool, ToolProgress } from '../tools/types.js';
import { httpStatus, mapFailure } from './errors.js';
import { loadClientSdk, loadHttpClientSdk, type ClientSdk } from './load-sdk.js';
import { mapCallResult, type MCPCallResult } from './map-result.js';
import { toAgentTools, type MCPToolInfo, type SkippedTool } from './map-tool.js';
import { checkServerConfig, isStdioConfig, serverLabel, type MCPHttpServerConfig, type MCPServerConfig } from './server-config.js';
import { ExecaStdioTransport } from './stdio-transport.js';

/** Reconnection after a dropped connection: up to `attempts` tries, waiting `initialDelayMs`, doubling up to `maxDelayMs`. */
export interface ReconnectOptions {
  /** Default 3. */
  attempts?: number;
  /** Default 250. */
  initialDelayMs?: number;
  /** Default 5000. */
  maxDelayMs?: number;
}

/** Options of an MCPClient. */
export interface MCPClientOptions {
  /** Prefix of the agentlib tool names (`prefix_tool`). Default: none (MultiMCPClient uses the server name). */
  prefix?: string;
  /** Only the remote tools whose names match one of these globs. */
  tools?: readonly string[];
  /** Milliseconds for the spawn / connection and the initialize handshake. Default 30000. */
  connectTimeoutMs?: number;
  /** Milliseconds a tool call may take (each call may pass its own). Default 60000. */
  callTimeoutMs?: number;
  /** Reconnection after a dropped connection; `false` turns it off (the client stays disconnected). */
  reconnect?: ReconnectOptions | false;
  /** The client name and version sent in the handshake. Default agentlib. */
  clientInfo?: { name: string; version: string };
  /** The fetch used for HTTP servers. Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Waits between reconnection attempts (tests pass a virtual clock). */
  sleep?: Sleep;
}

/** Options of one call. */
export interface MCPCallOptions {
  /** Cancels the call: the server receives `notifications/cancelled` and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds for this call (default the client's `callTimeoutMs`). */
  timeoutMs?: number;
  /** Receives the server's `notifications/progress` for this call (a progress token is sent only when this is given). */
  onProgress?: (update: ToolProgress) => void;
}

/** Called with the new tool list after the server announced `notifications/tools/list_changed`. */
export type ToolsChangedListener = (tools: readonly Tool[]) => void;

const DEFAULTS = { connectTimeoutMs: 30_000, callTimeoutMs: 60_000, attempts: 3, initialDelayMs: 250, maxDelayMs: 5000 };

/**
 * A connection to one MCP server, over stdio (a command spawned with execa in its own process
 * group, stderr kept for error messages) or Streamable HTTP (falling back to HTTP+SSE for older
 * servers). Connects on first use (or `connect()`); calls may run concurrently; a call that loses
 * the connection fails with MCPConnectionError and the next one reconnects (with backoff).
 *
 * @example
 * await using client = new MCPClient({ name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] });
 * const agent = new Agent({ provider, tools: await client.tools() });
 */
export class MCPClient {
  /** The server's name (prefix of tools in a MultiMCPClient, label in messages). */
  readonly name: string;
  readonly #config: MCPServerConfig;
  readonly #options: MCPClientOptions;
  readonly #filter: ((name: string) => boolean) | undefined;
  readonly #listeners = new Set<ToolsChangedListener>();
  #sdk: ClientSdk | undefined;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #connecting: Promise<Client> | undefined;
  #everConnected = false;
  #dropped: string | undefined;
  #closed = false;
  #toolInfos: MCPToolInfo[] | undefined;
  #skipped: SkippedTool[] = [];
  #protocol: 'stdio' | 'streamable-http' | 'sse' | undefined;
  /** The tool-list refresh after `tools/list_changed`, while it runs. */
  #refreshing: Promise<void> | undefined;

  constructor(config: MCPServerConfig, options: MCPClientOptions = {}) {
    checkServerConfig(config);
    this.#config = config;
    this.#options = options;
    this.name = serverLabel(config);
    const globs = options.tools?.map((pattern) => compileGlob(pattern));
    this.#filter = globs === undefined ? undefined : (name) => globs.some((glob) => glob.test(name));
  }

  /** The transport in use once connected: `stdio`, `streamable-http`, or `sse` (the fallback). */
  get protocol(): 'stdio' | 'streamable-http' | 'sse' | undefined {
    return this.#protocol;
  }

  /** True while a connection is open. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** The last 4 KB a stdio server wrote to stderr ('' for HTTP servers). */
  get stderr(): string {
    return this.#transport instanceof ExecaStdioTransport ? this.#transport.stderr : '';
  }

  /** The server's name and version from the handshake. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.#client?.getServerVersion();
  }

  /** Tools of the last list that could not become agentlib tools (schema unusable, name taken), with the reason. */
  get skippedTools(): readonly SkippedTool[] {
    return this.#skipped;
  }

  /** Opens the connection (spawn or HTTP, then the handshake). Throws MCPConnectionError when it cannot. */
  async connect(): Promise<void> {
    await this.#ensure();
  }

  /** The server's tools (all pages), as it describes them, after the `tools` filter. Cached until `list_changed`. */
  async listTools(): Promise<MCPToolInfo[]> {
    if (this.#toolInfos !== undefined && this.#client !== undefined) return this.#toolInfos;
    const client = await this.#ensure();
    const infos: MCPToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#request(client, 'tools/list', () => client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: this.#timeout(undefined) }));
      for (const info of page.tools) if (this.#filter === undefined || this.#filter(info.name)) infos.push(info as MCPToolInfo);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.#toolInfos = infos;
    return infos;
  }

  /**
   * The server's tools as agentlib tools (named `prefix_tool`, see `agentToolName`), calling the
   * server with the run's AbortSignal. Tools that cannot be mapped are left out (`skippedTools`).
   */
  async tools(taken?: Set<string>): Promise<Tool[]> {
    const infos = await this.listTools();
    const { tools, skipped } = toAgentTools(infos, {
      server: this.name,
      ...(this.#options.prefix === undefined ? {} : { prefix: this.#options.prefix }),
      ...(taken === undefined ? {} : { taken }),
      call: async (remote, args, signal, progress) => {
        const result = await this.callTool(remote, args, { signal, ...(progress === undefined ? {} : { onProgress: progress }) });
        return result.text;
      },
    });
    this.#skipped = skipped;
    return tools;
  }

  /**
   * Calls a tool. Resolves with the mapped result; throws MCPToolError when the server reports the
   * call failed (`isError`, or a JSON-RPC error), MCPConnectionError when the connection is lost
   * (the next call reconnects), MCPError on a timeout, and the signal's reason when cancelled (the
   * server is sent `notifications/cancelled`).
   */
  async callTool(name: string, args: Record<string, unknown> = {}, options: MCPCallOptions = {}): Promise<MCPCallResult> {
    options.signal?.throwIfAborted();
    const client = await this.#ensure();
    const timeout = this.#timeout(options.timeoutMs);
    // The SDK leaves its abort listener on the signal it is given: a run's signal shared by many
    // calls would collect one per call. Each call gets a signal of its own, unlinked afterwards.
    const linked = options.signal === undefined ? undefined : linkSignals([options.signal], { ownAbort: true });
    const onProgress = options.onProgress;
    const requestOptions = {
      timeout,
      ...(linked === undefined ? {} : { signal: linked.signal }),
      ...(onProgress === undefined ? {} : { onprogress: ({ progress, total, message }: { progress: number; total?: number | undefined; message?: string | undefined }) => onProgress(compactProgress(progress, total, message)) }),
    };
    let raw;
    try {
      raw = await this.#request(client, `tool call "${name}"`, () => client.callTool({ name, arguments: args }, undefined, requestOptions), name, options.signal, timeout);
    } finally {
      linked?.dispose();
    }
    // A server announces a tool-list change before it answers the call that caused it: the caller
    // gets the answer once the new list is in place (the agent's next model call sees the new tools).
    await this.#refreshing;
    if (!('content' in raw)) throw new MCPError(`MCP server "${this.name}" answered tool call "${name}" with a task result, which agentlib does not support`, { server: this.name });
    const result = mapCallResult(raw as Parameters<typeof mapCallResult>[0]);
    if (result.isError) {
      throw new MCPToolError(`MCP tool "${name}" of server "${this.name}" returned an error: ${result.text || '(no message)'}`, { toolName: name, server: this.name });
    }
    return result;
  }

  /** Registers a listener for tool-list changes; returns the function that removes it. */
  onToolsChanged(listener: ToolsChangedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the connection (a stdio server's process group is ended). The client cannot be used afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#disconnect();
  }

  /** `await using client = new MCPClient(…)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #timeout(ms: number | undefined): number {
    return ms ?? this.#options.callTimeoutMs ?? DEFAULTS.callTimeoutMs;
  }

  async #request<T>(client: Client, what: string, send: () => Promise<T>, toolName?: string, signal?: AbortSignal, timeoutMs?: number): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      const status = httpStatus(error);
      // An HTTP server that forgot the session (restarted) answers 404: the next call opens a new one.
      if (status === 404 && this.#client === client) await this.#drop(client, 'the server no longer knows the session');
      throw mapFailure(error, {
        server: this.name,
        what,
        ...(toolName === undefined ? {} : { toolName }),
        timeoutMs: timeoutMs ?? this.#timeout(undefined),
        dropped: () => (this.#client === client ? undefined : (this.#dropped ?? 'the connection was lost')),
      });
    }
  }

  async #ensure(): Promise<Client> {
    if (this.#closed) throw new MCPError(`The MCP client of server "${this.name}" is closed`, { server: this.name });
    if (this.#client !== undefined) return this.#client;
    this.#connecting ??= (this.#everConnected ? this.#reconnect() : this.#open()).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #reconnect(): Promise<Client> {
    const settings = this.#options.reconnect;
    if (settings === false) throw new MCPConnectionError(`The connection to MCP server "${this.name}" was lost (${this.#dropped ?? 'closed'}) and reconnection is off`, { server: this.name });
    const attempts = Math.max(1, settings?.attempts ?? DEFAULTS.attempts);
    let delay = settings?.initialDelayMs ?? DEFAULTS.initialDelayMs;
    const maxDelay = settings?.maxDelayMs ?? DEFAULTS.maxDelayMs;
    const wait = this.#options.sleep ?? realSleep;
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        return await this.#open();
      } catch (error) {
        last = error;
        if (this.#closed || attempt === attempts) break;
        await wait(delay);
        delay = Math.min(maxDelay, delay * 2);
      }
    }
    if (MCPConnectionError.isInstance(last)) throw last;
    throw new MCPConnectionError(`Cannot reconnect to MCP server "${this.name}" after ${attempts} attempts: ${(last as Error).message}`, { server: this.name, cause: last });
  }

  async #open(): Promise<Client> {
    const sdk = (this.#sdk ??= await loadClientSdk());
    const timeout = this.#options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
    if (isStdioConfig(this.#config)) {
      const transport = new ExecaStdioTransport(this.#config, this.name, sdk);
      this.#protocol = 'stdio';
      return this.#handshake(sdk, transport, timeout);
    }
    const config = this.#config;
    const http = await loadHttpClientSdk();
    const requestInit: RequestInit = config.headers === undefined ? {} : { headers: { ...config.headers } };
    const fetchOption = this.#options.fetch === undefined ? {} : { fetch: this.#options.fetch };
    try {
      const transport = new http.streamable.StreamableHTTPClientTransport(new URL(config.url), { requestInit, ...fetchOption });
      this.#protocol = 'streamable-http';
      return await this.#handshake(sdk, transport, timeout);
    } catch (error) {
      const status = httpStatus((error as { cause?: unknown }).cause ?? error);
      // Servers of the 2024-11-05 protocol answer a POST to their SSE endpoint with 404 or 405.
      if (status !== 400 && status !== 404 && status !== 405) throw error;
      const sourceInit = eventSourceInit(config, this.#options.fetch);
      const transport = new http.sse.SSEClientTransport(new URL(config.url), { requestInit, ...(sourceInit === undefined ? {} : { eventSourceInit: sourceInit }), ...fetchOption });
      this.#protocol = 'sse';
      return this.#handshake(sdk, transport, timeout);
    }
  }

  async #handshake(sdk: ClientSdk, transport: Transport, timeout: number): Promise<Client> {
    const info = this.#options.clientInfo ?? { name: 'agentlib', version: '0.1.0' };
    const client = new sdk.client.Client(info, { capabilities: {} });
    client.setNotificationHandler(sdk.types.ToolListChangedNotificationSchema, () => {
      const refreshing = this.#toolsChanged(client);
      this.#refreshing = refreshing;
      void refreshing.finally(() => {
        if (this.#refreshing === refreshing) this.#refreshing = undefined;
      });
      return refreshing;
    });
    client.onclose = () => {
      if (this.#client === client) void this.#drop(client, describeExit(transport));
    };
    try {
      await client.connect(transport, { timeout });
    } catch (error) {
      await transport.close().catch(() => undefined);
      const stderr = transport instanceof ExecaStdioTransport ? transport.stderr.trim() : '';
      const exit = transport instanceof ExecaStdioTransport ? transport.exit : undefined;
      if (MCPConnectionError.isInstance(error)) throw error;
      const detail = [exit, stderr === '' ? undefined : `stderr: ${stderr}`].filter((s) => s !== undefined).join('; ');
      const status = httpStatus(error);
      const reason = status !== undefined ? `HTTP ${status}` : (error as Error).message;
      throw new MCPConnectionError(`Cannot connect to MCP server "${this.name}": ${reason}${detail === '' ? '' : ` (${detail})`}`, { server: this.name, cause: error });
    }
    this.#client = client;
    this.#transport = transport;
    this.#dropped = undefined;
    this.#everConnected = true;
    this.#toolInfos = undefined;
    return client;
  }

  async #toolsChanged(client: Client): Promise<void> {
    if (this.#client !== client) return;
    this.#toolInfos = undefined;
    if (this.#listeners.size === 0) return;
    try {
      const tools = await this.tools();
      for (const listener of this.#listeners) listener(tools);
    } catch {
      // the list is fetched again on the next listTools(); a failure here has no caller to report to
    }
  }

  async #drop(client: Client, reason: string): Promise<void> {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#dropped = reason;
    const transport = this.#transport;
    this.#transport = undefined;
    client.onclose = () => undefined;
    await transport?.close().catch(() => undefined);
  }

  async #disconnect(): Promise<void> {
    const pending = this.#connecting;
    if (pending) await pending.catch(() => undefined);
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    this.#transport = undefined;
    if (client) client.onclose = () => undefined;
    await client?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
  }
}

function describeExit(transport: Transport): string {
  if (!(transport instanceof ExecaStdioTransport)) return 'the server closed the connection';
  const stderr = transport.stderr.trim();
  const tail = stderr === '' ? '' : `; stderr: ${stderr.split('\n').slice(-5).join('\n')}`;
  return `the server process ${transport.exit ?? 'closed its output'}${tail}`;
}

function eventSourceInit(config: MCPHttpServerConfig, fetchImpl: typeof fetch | undefined): { fetch: typeof fetch } | undefined {
  if (config.headers === undefined && fetchImpl === undefined) return undefined;
  const base = fetchImpl ?? fetch;
  const headers = config.headers ?? {};
  return { fetch: (url, init) => base(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } }) };
}

function compactProgress(progress: number, total: number | undefined, message: string | undefined): ToolProgress {
  return { progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) };
}
