/** A reasoning strategy: instructions appended to the system prompt. No extra LLM calls. */
export interface ReasoningStrategy {
  name: ReasoningStrategyName;
  description: string;
  instructions: string;
}

/** The names of the built-in strategies. */
export type ReasoningStrategyName = 'react' | 'cot' | 'plan_then_act';

/** The built-in reasoning strategies. */
export const REASONING_STRATEGIES: Readonly<Record<ReasoningStrategyName, ReasoningStrategy>> = {
  react: {
    name: 'react',
    description: 'Reason, act with a tool, observe the result, repeat.',
    instructions:
      'Work in a loop: briefly state your reasoning, then call a tool if you need information or an action, ' +
      'read the result, and repeat. When you have enough, give the final answer without calling a tool.',
  },
  cot: {
    name: 'cot',
    description: 'Think step by step before answering.',
    instructions: 'Think through the problem step by step, then give a clear final answer.',
  },
  plan_then_act: {
    name: 'plan_then_act',
    description: 'Write a short plan first, then carry it out with tools.',
    instructions:
      'Before acting, write a short numbered plan. Then carry out the plan step by step, calling tools as needed, ' +
      'and revise the plan if a result changes it. Finish with the final answer.',
  },
};

/** True when `name` is a built-in strategy. */
export function isReasoningStrategy(name: string): name is ReasoningStrategyName {
  return Object.hasOwn(REASONING_STRATEGIES, name);
}
