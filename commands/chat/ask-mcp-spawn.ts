import type { CliIO } from '../../cli/output.js';
import type { PendingSpawn } from '../../lib/mcp/agent-connector.js';

/**
 * Before the chat starts: shows the full command of every stdio MCP server the agent file would
 * spawn and asks once whether to run them (default no). A yes is remembered for this project.
 */
export async function askMcpSpawn(spawns: readonly PendingSpawn[], io: CliIO): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  io.stderr.write(`This agent starts ${spawns.length === 1 ? 'an MCP server' : `${spawns.length} MCP servers`} on this machine:\n`);
  for (const { entry, description } of spawns) io.stderr.write(`  ${entry.name}: ${description}\n`);
  return confirm(
    { message: 'Run these commands? (remembered for this project)', default: false },
    { input: io.stdin as NodeJS.ReadableStream, output: io.stderr as NodeJS.WritableStream, clearPromptOnDone: false },
  );
}
