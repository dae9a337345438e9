import { MCPError } from '../core/errors/mcp-error.js';

import type * as ClientModuleNs from '@modelcontextprotocol/sdk/client/index.js';
import type * as StreamableClientNs from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as SseClientNs from '@modelcontextprotocol/sdk/client/sse.js';
import type * as StdioSharedNs from '@modelcontextprotocol/sdk/shared/stdio.js';
import type * as ServerNs from '@modelcontextprotocol/sdk/server/index.js';
import type * as StreamableServerNs from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as StdioServerNs from '@modelcontextprotocol/sdk/server/stdio.js';
import type * as TypesNs from '@modelcontextprotocol/sdk/types.js';

type ClientModule = typeof ClientModuleNs;
type StreamableClientModule = typeof StreamableClientNs;
type SseClientModule = typeof SseClientNs;
type StdioSharedModule = typeof StdioSharedNs;
type ServerModule = typeof ServerNs;
type StreamableServerModule = typeof StreamableServerNs;
type StdioServerModule = typeof StdioServerNs;
type TypesModule = typeof TypesNs;

const PACKAGE = '@modelcontextprotocol/sdk';

/** True for "the package (or one of its files) is not installed". */
function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

async function load<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    if (isMissing(error) && String((error as Error).message).includes(PACKAGE)) {
      throw new MCPError(`MCP needs the optional package ${PACKAGE}: install it with "npm install ${PACKAGE}" to use MCP servers or serve tools over MCP`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** The parts of the MCP SDK the client uses, imported on first use. */
export interface ClientSdk {
  client: ClientModule;
  types: TypesModule;
  stdio: StdioSharedModule;
}

let clientSdk: Promise<ClientSdk> | undefined;

/** Imports the SDK's client modules once (an MCPError naming the npm command when it is not installed). */
export function loadClientSdk(): Promise<ClientSdk> {
  clientSdk ??= load(async () => {
    const [client, types, stdio] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
    ]);
    return { client, types, stdio };
  });
  clientSdk.catch(() => (clientSdk = undefined));
  return clientSdk;
}

/** The SDK's Streamable HTTP and SSE client transports. */
export function loadHttpClientSdk(): Promise<{ streamable: StreamableClientModule; sse: SseClientModule }> {
  return load(async () => {
    const [streamable, sse] = await Promise.all([import('@modelcontextprotocol/sdk/client/streamableHttp.js'), import('@modelcontextprotocol/sdk/client/sse.js')]);
    return { streamable, sse };
  });
}

/** The parts of the MCP SDK the server uses. */
export interface ServerSdk {
  server: ServerModule;
  types: TypesModule;
}

/** Imports the SDK's server modules. */
export function loadServerSdk(): Promise<ServerSdk> {
  return load(async () => {
    const [server, types] = await Promise.all([import('@modelcontextprotocol/sdk/server/index.js'), import('@modelcontextprotocol/sdk/types.js')]);
    return { server, types };
  });
}

/** The SDK's Streamable HTTP server transport. */
export function loadStreamableServerSdk(): Promise<StreamableServerModule> {
  return load(() => import('@modelcontextprotocol/sdk/server/streamableHttp.js'));
}

/** The SDK's stdio server transport. */
export function loadStdioServerSdk(): Promise<StdioServerModule> {
  return load(() => import('@modelcontextprotocol/sdk/server/stdio.js'));
}
