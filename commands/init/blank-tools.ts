/** The `tools.ts` the blank template writes: one commented example tool that the user owns. */
export const BLANK_TOOLS_TS = `/**
 * The tools of your agent. This file is yours: edit, rename or add tools freely.
 *
 * agent.yaml loads it with \`tools: [./tools.ts]\`: every exported tool() becomes a tool the model
 * can call. The model only sees a tool's name, its description and its parameters (with their
 * .describe() texts), so make those clear. What execute returns (a string, or any JSON value) is
 * what the model reads back; a thrown Error is reported to the model as a failed call.
 *
 * It imports only agentlib (tool, and agentlib's own zod as z), so installing agentlib is enough.
 */
import { tool, z } from 'agentlib';

const UNITS = ['C', 'F', 'K'] as const;
type Unit = (typeof UNITS)[number];

function toCelsius(value: number, unit: Unit): number {
  return unit === 'C' ? value : unit === 'F' ? ((value - 32) * 5) / 9 : value - 273.15;
}

function fromCelsius(celsius: number, unit: Unit): number {
  return unit === 'C' ? celsius : unit === 'F' ? (celsius * 9) / 5 + 32 : celsius + 273.15;
}

/** An example tool: converts a temperature between Celsius, Fahrenheit and Kelvin. Replace it with your own. */
export const convertTemperature = tool({
  // letters, digits and underscores; the policy in agent.yaml refers to tools by this name
  name: 'convert_temperature',
  description: 'Convert a temperature between Celsius (C), Fahrenheit (F) and Kelvin (K).',
  // the arguments, validated before execute runs; invalid arguments go back to the model
  parameters: z.object({
    value: z.number().describe('The temperature to convert'),
    from: z.enum(UNITS).describe('Unit of value: C, F or K'),
    to: z.enum(UNITS).describe('Unit to convert to: C, F or K'),
  }),
  // the second argument (ctx) has ctx.signal to abort slow work and ctx.context, the run's context
  execute: ({ value, from, to }) => {
    const result = fromCelsius(toCelsius(value, from), to);
    if (to === 'K' && result < 0) throw new Error(\`\${value} \${from} is below absolute zero\`);
    return { value: Math.round(result * 100) / 100, unit: to };
  },
});
`;
