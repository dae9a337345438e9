import type { CliIO } from '../../cli/output.js';

/** A CliIO that records what the CLI writes. */
export function memoryIO(env: Record<string, string | undefined> = {}, options: { isTTY?: boolean } = {}): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (chunk: string) => (out += chunk), isTTY: options.isTTY ?? false, columns: 100 },
    stderr: { write: (chunk: string) => (err += chunk), isTTY: options.isTTY ?? false },
    env,
    out: () => out,
    err: () => err,
  };
}
