/** The `tools.ts` the blank template writes: one commented example tool that the user owns. */
export const BLANK_TOOLS_TS = `/**
 * The tools of your agent. This file is yours: edit, rename or add tools freely.
 *
 * agent.yaml loads it with \`tools: [./tools.ts]\`: every exported tool() becomes a tool the model
 * can call. The model only sees a tool's name, its description and its parameters (with their
 * .describe() texts), so make those clear. What execute returns (a string, or any JSON value) is
 * what the model reads back; a thrown Error is reported to the model as a failed call.
 *
 * Needs the agentlib and zod packages: npm install agentlib zod
 */
import { tool } from 'agentlib';
import { z } from 'zod';

/** An example tool: the current date and time, in a time zone the model may pick. Replace it with your own. */
export const getCurrentTime = tool({
  // letters, digits and underscores; the policy in agent.yaml refers to tools by this name
  name: 'get_current_time',
  description: 'Get the current date and time, optionally in an IANA time zone such as Europe/Oslo.',
  // the arguments, validated before execute runs; invalid arguments go back to the model
  parameters: z.object({
    timezone: z.string().optional().describe('IANA time zone, e.g. "America/New_York"; default UTC'),
  }),
  // the second argument (ctx) has ctx.signal to abort slow work and ctx.context, the run's context
  execute: ({ timezone }) => {
    const timeZone = timezone ?? 'UTC';
    const now = new Date();
    return {
      timeZone,
      iso: now.toISOString(),
      local: now.toLocaleString('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'long' }),
    };
  },
});
`;
