// Accuracy and speed of agentlib's safety detectors on the labelled corpora of fixtures/safety/,
// next to the libraries people reach for today: @dawn-analytics/redact-pii (PII) and
// @andersmyrmel/vard (prompt injection), both installed in bench/node_modules.
//   node --import tsx bench/safety-eval.ts [--check] [--json PATH | --no-json]
// Goals (issue 17): PII F1 ≥ 0.95 and above the peer on every type it covers; injection recall
// ≥ 0.9 with ≤ 2 % false positives on the benign tool outputs; screening ≥ 50 MB/s on 1 MB.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import vardLib from '@andersmyrmel/vard';
import { detectPii } from '../lib/safety/pii/detect-pii.js';
import { PII_TYPES } from '../lib/safety/pii/pii-types.js';
import { OutputScreener } from '../lib/safety/screening/output-screener.js';
import { safetyCorpora, scoreInjection, scorePii, type PiiDetector, type Scores } from '../test/support/safety-corpus.js';

const { values: args } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    json: { type: 'string', default: 'bench/results/safety-eval.json' },
    'no-json': { type: 'boolean', default: false },
  },
});

type Redactor = { redact(text: string): string };
const { SyncRedactor } = createRequire(import.meta.url)('@dawn-analytics/redact-pii') as { SyncRedactor: new (options: object) => Redactor };

/** The peer's redactor for one of its built-in kinds (all others off). */
const PEER_KINDS: Readonly<Record<string, string>> = { email: 'emailAddress', phone: 'phoneNumber', ssn: 'usSocialSecurityNumber', credit_card: 'creditCardNumber', ipv4: 'ipAddress', ipv6: 'ipAddress' };
const PEER_BUILT_INS = ['creditCardNumber', 'streetAddress', 'zipcode', 'phoneNumber', 'ipAddress', 'usSocialSecurityNumber', 'emailAddress', 'username', 'password', 'credentials', 'digits', 'url', 'names'];
function peerRedactor(kind: string): Redactor {
  return new SyncRedactor({ builtInRedactors: Object.fromEntries(PEER_BUILT_INS.map((name) => [name, { enabled: name === kind }])) });
}

const corpora = safetyCorpora();

const ours: PiiDetector = (text, type) => {
  const found = detectPii(text).filter((m) => m.type === type);
  return { flagged: found.length > 0, caught: (value) => found.some((m) => m.text === value) };
};
const peerCache = new Map<string, Redactor>();
const peer: PiiDetector = (text, type) => {
  const kind = PEER_KINDS[type]!;
  let redactor = peerCache.get(kind);
  if (redactor === undefined) peerCache.set(kind, (redactor = peerRedactor(kind)));
  const out = redactor.redact(text);
  return { flagged: out !== text, caught: (value) => !out.includes(value) };
};

const ourPii = scorePii(corpora.pii, PII_TYPES, ours);
const peerPii = scorePii(corpora.pii, Object.keys(PEER_KINDS), peer);
const f = (n: number): string => n.toFixed(3);
const row = (s: Scores | undefined): string => (s === undefined ? '—'.padEnd(24) : `${f(s.precision)} ${f(s.recall)} ${f(s.f1)}`.padEnd(24));
console.log(`PII (${corpora.pii.length} texts: ${corpora.pii.filter((s) => s.entities.length > 0).length} with PII, ${corpora.pii.filter((s) => s.entities.length === 0).length} traps)`);
console.log(`${'type'.padEnd(12)} ${'agentlib P / R / F1'.padEnd(24)} ${'redact-pii P / R / F1'.padEnd(24)} F1 ratio`);
for (const type of PII_TYPES) {
  const a = ourPii[type]!;
  const b = peerPii[type];
  console.log(`${type.padEnd(12)} ${row(a)} ${row(b)} ${b === undefined ? '(not covered)' : b.f1 === 0 ? '∞' : `${(a.f1 / b.f1).toFixed(2)}×`}`);
}
const micro = (all: Record<string, Scores>): number => {
  const tp = Object.values(all).reduce((n, s) => n + s.tp, 0);
  const fp = Object.values(all).reduce((n, s) => n + s.fp, 0);
  const fn = Object.values(all).reduce((n, s) => n + s.fn, 0);
  return (2 * tp) / (2 * tp + fp + fn);
};
console.log(`overall (micro) F1: agentlib ${f(micro(ourPii))}, redact-pii ${f(micro(peerPii))} (on the types it covers: agentlib ${f(micro(Object.fromEntries(Object.keys(PEER_KINDS).map((t) => [t, ourPii[t]!]))))})`);

const screener = new OutputScreener();
const vard = vardLib.moderate();
const ourInj = scoreInjection(corpora.injections, corpora.benign, (text) => screener.find(text).length > 0);
const peerInj = scoreInjection(corpora.injections, corpora.benign, (text) => !vard.safeParse(text).safe);
console.log(`\nInjection (${corpora.injections.length} injections, ${corpora.benign.length} benign tool outputs)`);
console.log(`${'detector'.padEnd(12)} recall  precision F1     false positives`);
for (const [name, s] of [['agentlib', ourInj], ['vard', peerInj]] as const) {
  console.log(`${name.padEnd(12)} ${f(s.recall)}   ${f(s.precision)}     ${f(s.f1)}  ${(s.falsePositiveRate * 100).toFixed(1)} %`);
}
const techniques = [...new Set(corpora.injections.map((s) => (s.technique ?? '').split(':')[0]!))];
console.log('recall by technique (agentlib / vard):');
for (const technique of techniques) {
  const subset = corpora.injections.filter((s) => (s.technique ?? '').split(':')[0] === technique);
  const a = subset.filter((s) => screener.find(s.text).length > 0).length;
  const b = subset.filter((s) => !vard.safeParse(s.text).safe).length;
  console.log(`  ${technique.padEnd(20)} ${a}/${subset.length}  ${b}/${subset.length}`);
}

/** 1 MB of tool output built from the benign corpus (`ascii`: non-ASCII characters replaced). */
function megabyte(ascii: boolean): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const text = corpora.benign[i % corpora.benign.length]!.text;
    const piece = ascii ? text.replace(/[^\x00-\x7f]/g, '?') : text;
    parts.push(piece);
    size += piece.length + 1;
  }
  // Decoded from bytes, as a tool's output arrives (a fresh flat string, not a slice of a bigger one).
  return Buffer.from(parts.join('\n').slice(0, 1_000_000), 'utf8').toString('utf8');
}
/**
 * MB/s of screening `text`: the least CPU time (user + system) of 15 runs after 5 warm-ups.
 * Screening is synchronous and single-threaded, so CPU time is its cost without the time other
 * processes held the core (wall time on a busy machine is mostly waiting).
 */
function throughput(text: string): number {
  for (let i = 0; i < 5; i++) screener.screen(text);
  let best = Infinity;
  for (let i = 0; i < 15; i++) {
    const before = process.cpuUsage();
    screener.screen(text);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return text.length / 1e6 / (best / 1000);
}
const asciiRate = throughput(megabyte(true));
const mixedRate = throughput(megabyte(false));
/** The slow path: an injection in every 10 KB, so each pattern runs on its own from the first one. */
function withInjections(): string {
  const base = megabyte(true);
  const parts: string[] = [];
  for (let at = 0, i = 0; at < base.length; at += 10_000, i++) parts.push(base.slice(at, at + 10_000), `\n${corpora.injections[i % corpora.injections.length]!.text}\n`);
  return parts.join('').slice(0, 1_000_000);
}
const injectedRate = throughput(withInjections());
const load = loadavg()[0] ?? 0;
console.log(`\nScreening 1 MB of tool output (least CPU time of 15): ${asciiRate.toFixed(0)} MB/s ASCII, ${mixedRate.toFixed(0)} MB/s with non-ASCII text, ${injectedRate.toFixed(0)} MB/s with an injection every 10 KB (${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${load.toFixed(1)}${load > cpus().length ? ': the machine is busy, speeds are understated' : ''})`);

const goals = {
  piiF1: PII_TYPES.every((t) => ourPii[t]!.f1 >= 0.95),
  piiAbovePeer: Object.keys(PEER_KINDS).every((t) => ourPii[t]!.f1 > peerPii[t]!.f1),
  injectionRecall: ourInj.recall >= 0.9,
  injectionFalsePositives: ourInj.falsePositiveRate <= 0.02,
  screeningSpeed: asciiRate >= 50 && mixedRate >= 50,
};
console.log(`\ngoals: ${Object.entries(goals).map(([k, v]) => `${k} ${v ? 'met' : 'MISSED'}`).join(', ')}`);
if (!args['no-json']) {
  mkdirSync(dirname(args.json), { recursive: true });
  writeFileSync(args.json, `${JSON.stringify({ version: 1, pii: { agentlib: ourPii, peer: peerPii }, injection: { agentlib: ourInj, peer: peerInj }, screeningMBps: { ascii: asciiRate, mixed: mixedRate, injected: injectedRate, loadAverage: load }, goals }, null, 2)}\n`);
}
if (args.check && Object.values(goals).some((v) => !v)) process.exit(1);
