// Re-creates examples/calculator/cassette.jsonl from real recorded OpenAI traffic, with no network:
// the loopback replay server of the tests serves the two recorded responses of
// fixtures/providers/openai/chat.tool_call.roundtrip.stream.simonw-llm (a real gpt-4o-mini tool round
// trip, see fixtures/providers/PROVENANCE.md) while the built CLI runs the example with --record.
// Usage: npm run build && node --import tsx scripts/record-example-cassette.ts
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { recordedResponses, sseResponse, startReplayServer } from '../test/support/replay-server.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const server = await startReplayServer();
try {
  server.enqueue(...recordedResponses('openai/chat.tool_call.roundtrip.stream.simonw-llm.interactions.json').map((r) => sseResponse(r.body ?? '')));
  // Asynchronously: the replay server runs in this process and must keep answering.
  const run = await execa(
    process.execPath,
    ['bin/agentlib.js', 'run', 'examples/calculator/agent.yaml', 'What is 1231 * 2331?', '--record', 'examples/calculator/cassette.jsonl', '--no-trace', '--quiet'],
    { cwd: root, reject: false, env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-example-not-a-key', CI: 'true' } },
  );
  process.stdout.write(`${run.stdout}\n`);
  process.stderr.write(run.stderr);
  if (run.exitCode !== 0) throw new Error(`agentlib run exited ${String(run.exitCode)}`);
} finally {
  await server.close();
}
