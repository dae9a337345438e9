import { fnv1a } from '../core/fnv1a.js';

/**
 * A deterministic unit vector for a text: hashed bag of lowercase words (feature hashing with a
 * sign bit), so texts sharing words have a positive cosine similarity and identical texts have 1.
 * A text without words gets a fixed unit vector.
 */
export function hashEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const hash = fnv1a(word);
    const index = hash % dimensions;
    vector[index] = (vector[index] ?? 0) + (fnv1a(word, hash) & 1 ? 1 : -1);
  }
  let sumOfSquares = 0;
  for (const value of vector) sumOfSquares += value * value;
  const norm = Math.sqrt(sumOfSquares);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((value) => value / norm);
}
