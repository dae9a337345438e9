/**
 * Exact integer arithmetic for the calculator example. Results are computed with BigInt, so large
 * products stay exact (a model doing the arithmetic itself would not be).
 */
import { tool, z } from 'agentlib';

const integer = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'an integer in decimal digits')]).describe('an integer');
const operands = z.object({ a: integer, b: integer });

/** Multiplies two integers exactly. */
export const multiply = tool({
  name: 'multiply',
  description: 'Multiply two integers exactly.',
  parameters: operands,
  execute: ({ a, b }) => (BigInt(a) * BigInt(b)).toString(),
});

/** Adds two integers exactly. */
export const add = tool({
  name: 'add',
  description: 'Add two integers exactly.',
  parameters: operands,
  execute: ({ a, b }) => (BigInt(a) + BigInt(b)).toString(),
});

/** Divides two integers: quotient and remainder. */
export const divide = tool({
  name: 'divide',
  description: 'Divide integer a by integer b; returns the quotient and the remainder.',
  parameters: operands,
  execute: ({ a, b }) => {
    if (BigInt(b) === 0n) throw new Error('division by zero');
    return { quotient: (BigInt(a) / BigInt(b)).toString(), remainder: (BigInt(a) % BigInt(b)).toString() };
  },
});
