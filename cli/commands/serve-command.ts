import type { CommandDescriptor } from '../command-descriptor.js';

/** `agentlib serve`: options only; the implementation (commands/serve.ts, hono) loads when it runs. */
export const serveCommand: CommandDescriptor = {
  name: 'serve',
  positionals: '<agent>',
  description: 'Serve an agent (or a graph file) over HTTP: /invoke, /stream (SSE), OpenAI-compatible /v1/chat/completions, a playground',
  examples: [
    ['$0 serve agent.yaml', 'serve on http://127.0.0.1:8000 (loopback only)'],
    ['$0 serve customer_support --port 3000 --cors http://localhost:5173', 'a template, another port, one allowed browser origin'],
    ['AGENTLIB_AUTH_TOKEN=… $0 serve agent.yaml --host 0.0.0.0', 'reachable from other machines: a bearer token is required'],
    ['$0 serve agent.yaml --trace-store sqlite://traces.db', "save every request's trace to traces.db (agentlib trace ls --store sqlite://traces.db)"],
  ],
  builder: (yargs) =>
    yargs
      .positional('agent', { type: 'string', describe: 'agent YAML file, a template name (customer_support, data_analyst, …), or a graph file (kind: graph)' })
      .option('port', { type: 'number', default: 8000, describe: 'port to listen on (0: any free port)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'address to bind; anything but loopback needs --auth-token' })
      .option('auth-token', { type: 'string', describe: 'require Authorization: Bearer <token> (or set AGENTLIB_AUTH_TOKEN)' })
      .option('auth-token-file', { type: 'string', describe: 'read the token from this file (one trailing newline dropped), so it is not in argv' })
      .option('cors', { type: 'string', describe: 'allow this browser origin (CORS is off without it)' })
      .option('max-concurrency', { type: 'number', default: 32, describe: 'concurrent requests; more get 429' })
      .option('timeout', { type: 'number', default: 120, describe: 'seconds a request may take; then 504' })
      .option('body-timeout', { type: 'number', default: 30, describe: 'seconds a request body may take to arrive; then 408' })
      .option('shutdown-grace', { type: 'number', default: 10, describe: 'seconds in-flight runs get to finish on SIGTERM/SIGINT' })
      .option('playground', { type: 'boolean', default: true, describe: 'serve the /playground page (--no-playground: off)' })
      .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'no access log on stderr' })
      .option('session-store', { type: 'string', describe: "where session_id conversations live: sqlite://[path] (default: the file's session: store, else .agentlib/agentlib.db), redis://host:port (several servers share it), file://dir, memory:// (this process only)" })
      .option('checkpoint', { type: 'string', describe: 'graph files: where threads are checkpointed: sqlite://[path] (default .agentlib/agentlib.db), postgres://… (several servers share it), file://dir, memory://' })
      .option('trace-store', { type: 'string', describe: "where each request's run trace is saved when the run ends: sqlite://[file.db] (default .agentlib/agentlib.db), file://dir (one .jsonl per run); read them with agentlib trace ls --store <url>. --no-trace-store: keep none" })
      .option('model', { alias: 'm', type: 'string', describe: "override the file's model" })
      .option('provider', { alias: 'p', type: 'string', describe: "override the file's provider (openai, anthropic, gemini, ollama)" })
      .option('max-iterations', { type: 'number', describe: 'override max_iterations' })
      .option('trust-mcp', { type: 'boolean', default: false, describe: "spawn the agent file's stdio MCP servers without asking (their commands run on this machine)" })
      .option('var', { type: 'string', array: true, describe: 'set a ${variable} for the YAML and the tools: --var key=value (repeatable)' })
      .option('provider-timeout', { type: 'number', describe: 'seconds without a byte from the provider before a streamed call (/stream, stream: true) fails and is retried: first byte, between chunks (default 60; 0: none); --timeout bounds the whole request' })
      .option('replay', { type: 'string', describe: 'answer provider calls from this cassette (no network)' })
      .option('cache', { type: 'string', describe: "cache LLM replies of /invoke and /v1/chat/completions without stream (streams bypass caches): a store URL (sqlite://file.db, redis://host:6379, memory://), or no value for .agentlib/agentlib.db; replaces the file's cache:. --no-cache: ignore the file's cache:" })
      .group(['port', 'host', 'auth-token', 'auth-token-file', 'cors', 'max-concurrency', 'timeout', 'body-timeout', 'shutdown-grace', 'playground', 'quiet', 'session-store', 'checkpoint', 'trace-store'], 'Server:')
      .group(['model', 'provider', 'max-iterations', 'var', 'provider-timeout', 'replay', 'cache', 'trust-mcp'], 'Agent:'),
  load: () => import('../../commands/serve.js'),
};
