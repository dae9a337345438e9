/** Who a message is from. */
export const Role = {
  USER: 'user',
  ASSISTANT: 'assistant',
  TOOL: 'tool',
  SYSTEM: 'system',
} as const;

/** One of `user`, `assistant`, `tool`, `system`. */
export type Role = (typeof Role)[keyof typeof Role];
