import { ConfigurationError } from '../../core/errors/configuration-error.js';

/** One relationship: `subject` —`relation`→ `object`, believed with `confidence` in [0, 1]. */
export interface Triple {
  subject: string;
  relation: string;
  object: string;
  confidence: number;
}

/** Which triples to read or delete: each given field must match (case-insensitive, whole value). */
export interface TripleQuery {
  subject?: string;
  relation?: string;
  object?: string;
  /** Most triples returned (reads only). */
  limit?: number;
}

/** Text of a triple field as stored: trimmed, runs of white space made one space. */
export function cleanTripleText(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** The identity of a triple: its three fields, cleaned and lower-cased. Confidence is not part of it. */
export function tripleKey(triple: Pick<Triple, 'subject' | 'relation' | 'object'>): [string, string, string] {
  return [cleanTripleText(triple.subject).toLowerCase(), cleanTripleText(triple.relation).toLowerCase(), cleanTripleText(triple.object).toLowerCase()];
}

/**
 * A triple as a store keeps it: fields cleaned, confidence checked (a number in [0, 1], default 1).
 * An empty field or a bad confidence throws ConfigurationError.
 */
export function normalizeTriple(triple: Triple): Triple {
  const out = { subject: cleanTripleText(String(triple.subject)), relation: cleanTripleText(String(triple.relation)), object: cleanTripleText(String(triple.object)), confidence: triple.confidence };
  for (const field of ['subject', 'relation', 'object'] as const) {
    if (out[field] === '') throw new ConfigurationError(`triple ${field} must not be empty`, { key: field });
  }
  if (typeof out.confidence !== 'number' || !(out.confidence >= 0 && out.confidence <= 1)) throw new ConfigurationError(`triple confidence must be a number in [0, 1] (got ${String(triple.confidence)})`, { key: 'confidence' });
  return out;
}

/** Store order: highest confidence first, then subject, relation, object (case-insensitive). */
export function compareTriples(a: Triple, b: Triple): number {
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  const [as, ar, ao] = tripleKey(a);
  const [bs, br, bo] = tripleKey(b);
  return as < bs ? -1 : as > bs ? 1 : ar < br ? -1 : ar > br ? 1 : ao < bo ? -1 : ao > bo ? 1 : 0;
}

/** The words of a text: lower-case runs of letters and digits (any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** How many of `keywords` (lower-case words) occur as whole words in the triple. */
export function keywordScore(triple: Triple, keywords: readonly string[]): number {
  const present = new Set(words(`${triple.subject} ${triple.relation} ${triple.object}`));
  return keywords.filter((k) => present.has(k)).length;
}

/** Checks a query's limit: undefined, or an integer ≥ 1. */
export function queryLimit(limit: number | undefined): number | undefined {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new ConfigurationError(`triple query limit must be an integer ≥ 1 (got ${String(limit)})`, { key: 'limit' });
  return limit;
}
