import { ExitCode } from '../cli/exit-codes.js';
import { writeData, writeJson } from '../cli/output.js';
import { UsageError } from '../cli/usage-error.js';
import { detectPii, redactMatches } from '../lib/safety/pii/detect-pii.js';
import { PII_TYPES, type PiiType } from '../lib/safety/pii/pii-types.js';
import { OutputScreener } from '../lib/safety/screening/output-screener.js';
import type { CommandArguments, CommandContext } from './command-module.js';
import { readInputText } from './read-input.js';

const USAGE = 'agentlib guard check [file] --pii --injection';

function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

function entities(value: unknown): PiiType[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter((v) => v !== '');
  for (const entity of list) if (!(PII_TYPES as readonly string[]).includes(entity)) throw new UsageError(`unknown PII kind "${entity}" (known: ${PII_TYPES.join(', ')})`);
  return list as PiiType[];
}

/**
 * `agentlib guard check [file] --pii --injection`: runs the detectors on a text and lists what
 * they find (kind, position, the matched text for the person tuning them), then the text as the
 * agent would pass it on (PII masked, injections replaced). A report: exit 0 whatever it finds
 * (`found` in the JSON document counts the findings), 2 for bad usage.
 */
export async function run(args: CommandArguments, context: CommandContext): Promise<number> {
  const { io } = context;
  if (args.action !== 'check') throw new UsageError(`unknown guard action "${String(args.action)}"; expected "check" (${USAGE})`);
  const pii = args.pii === true;
  const injection = args.injection === true;
  if (!pii && !injection) throw new UsageError(`choose at least one detector: --pii, --injection (${USAGE})`);
  const text = await readInputText(typeof args.file === 'string' ? args.file : undefined, io, USAGE);
  const types = entities(args.entities);
  const piiMatches = pii ? detectPii(text, types === undefined ? {} : { types }) : [];
  const patterns = Array.isArray(args.pattern) ? args.pattern.map(String) : typeof args.pattern === 'string' ? [args.pattern] : [];
  let screener: OutputScreener;
  try {
    screener = new OutputScreener({ patterns });
  } catch (error) {
    throw new UsageError(`--pattern: ${(error as Error).message}`);
  }
  const screened = injection ? screener.screen(text) : { content: text, findings: [] };
  const found = piiMatches.length + screened.findings.length;
  if (args.json === true) {
    writeJson(io, {
      found,
      pii: pii ? piiMatches.map((m) => ({ type: m.type, start: m.start, end: m.end, text: m.text, mask: m.mask })) : null,
      injection: injection ? screened.findings.map((f) => ({ pattern: f.pattern, start: f.start, end: f.end, text: text.slice(f.start, f.end) })) : null,
      ...(pii ? { redacted: redactMatches(text, piiMatches) } : {}),
      ...(injection ? { screened: screened.content } : {}),
    });
  } else {
    const lines: string[] = [];
    for (const m of piiMatches) lines.push(`${lineCol(text, m.start)}  pii ${m.type}  ${JSON.stringify(m.text)}`);
    for (const f of screened.findings) lines.push(`${lineCol(text, f.start)}  injection ${f.pattern}  ${JSON.stringify(text.slice(f.start, f.end))}`);
    writeData(io, lines.length === 0 ? 'nothing found' : `${lines.join('\n')}\n${found} finding${found === 1 ? '' : 's'}`);
  }
  return ExitCode.OK;
}
