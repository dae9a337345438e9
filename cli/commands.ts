import type { CommandDescriptor } from './command-descriptor.js';
import { chatCommand } from './commands/chat-command.js';
import { doctorCommand } from './commands/doctor-command.js';
import { evalCommand } from './commands/eval-command.js';
import { graphCommand } from './commands/graph-command.js';
import { guardCommand } from './commands/guard-command.js';
import { initCommand } from './commands/init-command.js';
import { mcpCommand } from './commands/mcp-command.js';
import { policyCommand } from './commands/policy-command.js';
import { ragCommand } from './commands/rag-command.js';
import { runCommand } from './commands/run-command.js';
import { serveCommand } from './commands/serve-command.js';
import { sessionsCommand } from './commands/sessions-command.js';
import { traceCommand } from './commands/trace-command.js';

/**
 * Every command of the CLI, as lazy descriptors: the program registers these for help, parsing and
 * completion, and imports a command's module (`load`) only when that command runs, so
 * `agentlib --help` never loads a provider SDK, Ink or a database driver.
 *
 * Commands land here as they are built (chat, run, serve, doctor, eval, trace, graph, init), each
 * as `{ name, description, builder, load: () => import('../commands/<name>.js') }`.
 */
export const commandDescriptors: readonly CommandDescriptor[] = [chatCommand, runCommand, serveCommand, evalCommand, graphCommand, traceCommand, sessionsCommand, ragCommand, mcpCommand, policyCommand, guardCommand, initCommand, doctorCommand];
