import { isPlainObject } from '../../core/json.js';

/** A judge's reply, read: a score in [0, 1] and a reason, or why it could not be read. */
export type JudgeReading = { ok: true; score: number; reason: string } | { ok: false; problem: string };

function objectsIn(text: string): string[] {
  const found: string[] = [];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/g;
  for (const m of text.matchAll(fenced)) if (m[1] !== undefined) found.push(m[1].trim());
  found.push(text.trim());
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start !== -1 && end > start) found.push(text.slice(start, end + 1));
  return found;
}

/**
 * Reads a judge's reply. Only a JSON object with a numeric `score` counts: prose without one, a
 * score that is not a number, or a score outside [0, 1] is a problem (the case then fails, never
 * passes — behavioural rule 7).
 */
export function readJudgeScore(reply: string): JudgeReading {
  for (const candidate of objectsIn(reply)) {
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (!isPlainObject(value) || !('score' in value)) continue;
    const score = value['score'];
    const reason = typeof value['reason'] === 'string' ? value['reason'] : '';
    if (typeof score !== 'number' || !Number.isFinite(score)) return { ok: false, problem: `the judge's score is not a number (${JSON.stringify(score)})` };
    if (score < 0 || score > 1) return { ok: false, problem: `the judge's score ${score} is outside 0..1` };
    return { ok: true, score, reason };
  }
  const shown = reply.trim().replace(/\s+/g, ' ');
  return { ok: false, problem: `the judge replied without a parseable score: ${JSON.stringify(shown.length > 100 ? `${shown.slice(0, 99)}…` : shown)}` };
}
