import { isPlainObject } from '../../core/json.js';

/** The grader's system prompt for a side-by-side judgement. */
export const PAIRWISE_SYSTEM = [
  'You are a strict, impartial judge comparing two answers to the same question.',
  'The order of the answers says nothing about their quality; do not favour the first or the longer one.',
  'Reply with one JSON object and nothing else: {"winner": "1" | "2" | "tie", "reason": "<one sentence>"}.',
].join('\n');

/** One judgement, read: which position won, or why it could not be read. */
export type PositionReading = { ok: true; winner: '1' | '2' | 'tie'; reason: string } | { ok: false; problem: string };

function candidates(text: string): string[] {
  const found = [...text.matchAll(/```(?:json)?\s*\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').trim());
  found.push(text.trim());
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start !== -1 && end > start) found.push(text.slice(start, end + 1));
  return found;
}

/**
 * Reads a pairwise judge's reply: only a JSON object whose `winner` is 1, 2 or tie counts
 * (`"1"`, `1`, `"A"`/`"B"` for 1/2, any case). Prose or another value is a problem, never a win.
 */
export function readPairwiseVerdict(reply: string): PositionReading {
  for (const text of candidates(reply)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isPlainObject(value) || !('winner' in value)) continue;
    const raw = String(value['winner']).trim().toLowerCase();
    const winner = raw === '1' || raw === 'a' ? '1' : raw === '2' || raw === 'b' ? '2' : raw === 'tie' || raw === 'draw' ? 'tie' : undefined;
    if (winner === undefined) return { ok: false, problem: `the judge's winner ${JSON.stringify(value['winner'])} is not 1, 2 or tie` };
    return { ok: true, winner, reason: typeof value['reason'] === 'string' ? value['reason'] : '' };
  }
  const shown = reply.trim().replace(/\s+/g, ' ');
  return { ok: false, problem: `the judge replied without a parseable winner: ${JSON.stringify(shown.length > 100 ? `${shown.slice(0, 99)}…` : shown)}` };
}
