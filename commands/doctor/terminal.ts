import { colorEnabled, type CliIO, type OutputStream } from '../../cli/output.js';
import { checkResult, type CheckResult } from './check.js';

function describeStream(name: string, stream: OutputStream): string {
  if (stream.isTTY !== true) return `${name} is not a terminal`;
  return stream.columns === undefined ? `${name} is a terminal` : `${name} is a terminal (${stream.columns} columns)`;
}

/** Why colour is on or off (mirrors cli/output.ts colorEnabled, plus `--no-color`). */
export function colorReason(io: CliIO, colorFlag: boolean): { enabled: boolean; reason: string } {
  const { env } = io;
  const enabled = colorFlag && colorEnabled(io.stdout, env);
  if (!colorFlag) return { enabled, reason: '--no-color' };
  if (env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return { enabled, reason: `FORCE_COLOR=${env.FORCE_COLOR}` };
  if ((env.NO_COLOR ?? '') !== '') return { enabled, reason: 'NO_COLOR is set' };
  if (env.FORCE_COLOR !== undefined) return { enabled, reason: 'FORCE_COLOR is set' };
  if (io.stdout.isTTY !== true) return { enabled, reason: 'stdout is not a terminal' };
  if (env.TERM === 'dumb') return { enabled, reason: 'TERM=dumb' };
  return { enabled, reason: 'terminal' };
}

/** Terminal facts that change the CLI's output: TTYs, colour, CI (informational; never fails). */
export function checkTerminal(io: CliIO, colorFlag: boolean): CheckResult {
  const color = colorReason(io, colorFlag);
  const ci = (io.env.CI ?? '') !== '' && io.env.CI !== 'false';
  const parts = [
    describeStream('stdout', io.stdout),
    describeStream('stderr', io.stderr),
    `colour ${color.enabled ? 'on' : 'off'} (${color.reason})`,
    ...(ci ? ['CI is set (no spinners)'] : []),
  ];
  return checkResult({
    id: 'terminal',
    title: 'Terminal',
    status: 'ok',
    required: false,
    detail: parts.join('; '),
    data: { stdoutTTY: io.stdout.isTTY === true, stderrTTY: io.stderr.isTTY === true, color: color.enabled, colorReason: color.reason, ci, ...(io.env.TERM === undefined ? {} : { term: io.env.TERM }) },
  });
}
