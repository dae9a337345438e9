import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { doctorCommand } from '../../cli/commands/doctor-command.js';
import { main } from '../../cli/main.js';
import { memoryIO } from '../support/cli-io.js';
import { jsonResponse, type ReplayResponse } from '../support/replay-server.js';

/** A key that must never appear in doctor's output. */
export const SECRET = 'sk-doctor-test-0123456789abcdefSECRET';

/** A finished in-process `agentlib doctor`. */
export interface DoctorRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `agentlib doctor …` in-process through main() with only the doctor command registered. */
export async function doctor(args: readonly string[], env: Record<string, string>, cwd: string): Promise<DoctorRun> {
  const io = { ...memoryIO({ NO_COLOR: '1', ...env }), cwd };
  const started = performance.now();
  const exitCode = await main(['doctor', ...args], { io, commands: [doctorCommand] });
  return { exitCode, stdout: io.out(), stderr: io.err(), ms: performance.now() - started };
}

/** A 200 model list as OpenAI / Anthropic (`data`) or Gemini / Ollama (`models`) answer. */
export function modelList(count: number, field: 'data' | 'models' = 'data'): ReplayResponse {
  return jsonResponse({ [field]: Array.from({ length: count }, (_, i) => ({ id: `model-${i}`, name: `model-${i}` })) });
}

/** A port on 127.0.0.1 nothing listens on (bound, then closed): connecting is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A scratch directory (the command's cwd) with optional files. */
export function scratchDir(files: Record<string, string> = {}): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'agentlib-doctor-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The JSON document of `doctor --json`. */
export interface DoctorDocument {
  version: number;
  ok: boolean;
  exitCode: number;
  summary: Record<'ok' | 'warn' | 'fail' | 'skip', number>;
  checks: { id: string; title: string; status: string; detail: string; hint?: string; required: boolean; data?: Record<string, unknown> }[];
}

/** The check with `id` in a document (throws when absent). */
export function checkOf(doc: DoctorDocument, id: string): DoctorDocument['checks'][number] {
  const check = doc.checks.find((c) => c.id === id);
  if (check === undefined) throw new Error(`no check ${id} in ${doc.checks.map((c) => c.id).join(', ')}`);
  return check;
}
