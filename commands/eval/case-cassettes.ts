import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Agent } from '../../lib/agent/agent.js';
import { CassetteError } from '../../lib/core/errors/cassette-error.js';
import { caseFileStem } from '../../lib/evals/case-file-name.js';
import type { EvalCase } from '../../lib/evals/types.js';
import type { RecordingProvider } from '../../lib/providers/replay/recording-provider.js';
import type { ReplayProvider } from '../../lib/providers/replay/replay-provider.js';
import type { AgentRequest } from '../run/resolve-agent.js';
import { resolveAgent } from '../run/resolve-agent.js';

/** The cassette file of a case in a per-case directory: `<dir>/<case slug>-<hash>.jsonl`. */
export function caseCassettePath(dir: string, caseId: string): string {
  return join(dir, `${caseFileStem(caseId)}.jsonl`);
}

/** The judge's cassette in a per-case directory (its calls may come from any case). */
export function graderCassetteInDir(dir: string): string {
  return join(dir, '_grader.jsonl');
}

/**
 * True when `--record`/`--replay` names a directory of per-case cassettes: an existing directory,
 * or (for `--record`) a path ending in `/`. Anything else is one cassette file for the suite.
 */
export function isCassetteDir(option: string, cwd: string): boolean {
  if (/[\\/]$/.test(option)) return true;
  const path = resolve(cwd, option);
  return existsSync(path) && statSync(path).isDirectory();
}

/** The per-case agents of a run with a cassette directory, and what they recorded or left unused. */
export interface CaseAgents {
  agentFor: (evalCase: EvalCase) => Promise<Agent>;
  recorders: RecordingProvider[];
  replays: ReplayProvider[];
}

/**
 * Per-case agents for `--record <dir>/` or `--replay <dir>`: each case's agent records to, or
 * replays from, its own cassette. In replay, a case whose cassette is missing errors alone
 * (a CassetteError naming the file and how to record it); the other cases run.
 */
export function caseAgents(request: AgentRequest, mode: 'record' | 'replay', dir: string, cwd: string): CaseAgents {
  const out: CaseAgents = { recorders: [], replays: [], agentFor: () => Promise.reject(new Error('unreachable')) };
  const { record: _record, replay: _replay, ...base } = request;
  out.agentFor = async (evalCase) => {
    const path = caseCassettePath(dir, evalCase.id);
    if (mode === 'replay' && !existsSync(path)) {
      throw new CassetteError(`no cassette for case "${evalCase.id}": ${relative(cwd, path) || path} is missing (record it with --record ${relative(cwd, dir) || '.'}/)`, { kind: 'io', file: path });
    }
    const resolved = await resolveAgent({ ...base, ...(mode === 'record' ? { record: path } : { replay: path }) });
    if (resolved.recorder !== undefined) out.recorders.push(resolved.recorder);
    if (resolved.replay !== undefined) out.replays.push(resolved.replay);
    return resolved.agent;
  };
  return out;
}
