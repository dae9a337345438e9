import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib mcp`: options only; the implementation (commands/mcp.ts) loads when it runs. */
export const mcpCommand: CommandDescriptor = {
  name: 'mcp',
  positionals: '<action> [target..]',
  description: "MCP: serve an agent's tools, list or call a server's tools",
  examples: [
    ['$0 mcp serve examples/calculator/agent.yaml', "serve an agent's tools over stdio (for Claude Desktop, an IDE, …); --http for Streamable HTTP"],
    ['$0 mcp tools -- agentlib mcp serve examples/calculator/agent.yaml', "list a stdio server's tools (a table, or --json); a URL for an HTTP server"],
    ['$0 mcp call "agentlib mcp serve examples/calculator/agent.yaml" multiply \'{"a": 1231, "b": 2331}\'', 'call one tool of a server'],
  ],
  builder: (yargs) =>
    yargs
      .positional('action', { type: 'string', describe: 'serve <agent.yaml>, tools <command…|url>, call <command|url|name> <tool> [json]' })
      .positional('target', { type: 'string', array: true, describe: 'serve: the agent file; tools: the server command (after --) or URL; call: the server, the tool, the JSON arguments' })
      .option('http', { type: 'boolean', default: false, describe: 'serve: Streamable HTTP instead of stdio' })
      .option('port', { type: 'number', default: 8765, describe: 'serve --http: port (0: any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'serve --http: address to bind; anything but loopback needs --auth-token' })
      .option('auth-token', { type: 'string', describe: 'serve --http: require Authorization: Bearer <token>' })
      .option('allow-origin', { type: 'string', array: true, describe: 'serve --http: a browser origin allowed to call (repeatable)' })
      .option('expose-agent', { type: 'boolean', default: false, describe: 'serve: add the agent itself as one tool (ask_<name>)' })
      .option('approve', { type: 'string', describe: 'serve: answer review-gated calls: all, none (default), or a policy YAML' })
      .option('trust-mcp', { type: 'boolean', default: false, describe: "serve: spawn the agent file's own stdio MCP servers without asking" })
      .option('var', { type: 'string', array: true, describe: 'serve: set a ${variable} for the YAML and the tools: --var key=value' })
      .option('agent', { type: 'string', describe: 'call, tools: look the server up by name in this agent file' })
      .option('header', { type: 'string', array: true, describe: 'tools, call: an HTTP header for a URL server, "Name: value" (repeatable)' })
      .option('timeout', { type: 'number', default: 60, describe: 'tools, call: seconds for the connection and the call' })
      .option('json', { type: 'boolean', default: false, describe: 'tools, call: print one JSON document' })
      .group(['http', 'port', 'host', 'auth-token', 'allow-origin', 'expose-agent', 'approve', 'trust-mcp', 'var'], 'Serve:')
      .group(['agent', 'header', 'timeout', 'json'], 'Tools and call:'),
  load: () => import('../../commands/mcp.js'),
};
