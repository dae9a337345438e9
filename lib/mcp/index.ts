/**
 * agentlib/mcp: MCP (Model Context Protocol) clients and server on the official SDK
 * (`@modelcontextprotocol/sdk`, an optional peer dependency imported on first use).
 */
export { MCPClient, type MCPCallOptions, type MCPClientOptions, type ReconnectOptions, type ToolsChangedListener } from './mcp-client.js';
export { MultiMCPClient, type FailedServer, type MCPServerEntry, type MultiMCPClientOptions } from './multi-mcp-client.js';
export { mcpTools, type MCPToolSet, type MCPToolsOptions } from './mcp-tools.js';
export { mapCallResult, type MCPCallResult, type MCPMedia } from './map-result.js';
export { agentToolName, type MCPToolInfo, type SkippedTool } from './map-tool.js';
export { checkServerConfig, isStdioConfig, serverLabel, type MCPHttpServerConfig, type MCPServerConfig, type MCPStdioServerConfig } from './server-config.js';
export { commandLine, INHERITED_ENV } from './stdio-transport.js';
export { MCPServer, type ExposedAgent, type MCPServerOptions } from './mcp-server.js';
export { type MCPHttpOptions, type RunningMCPHttpServer } from './mcp-http.js';
export { agentMcpConnector, type AgentMcpConnector, type AgentMcpConnectorOptions, type PendingSpawn } from './agent-connector.js';
export { McpTrustStore, serverEntries, spawnDescription, spawnFingerprint } from './configured-servers.js';
export { syncAgentTools, toolListHolder, type ToolHolder, type ToolsChange, type ToolsChangeSource } from './sync-agent-tools.js';
export { MCPConnectionError } from '../core/errors/mcp-connection-error.js';
export { MCPError } from '../core/errors/mcp-error.js';
export { MCPToolError } from '../core/errors/mcp-tool-error.js';
