/** The name routers and edges use for "the run ends here". */
export const END = '__end__';

/** What an agent node receives as its input (per node; default LAST_MESSAGE). */
export const ContextMode = {
  /** The last message of the graph state, as one user message. */
  LAST_MESSAGE: 'last_message',
  /** The last `contextN` messages (default 5). */
  LAST_N: 'last_n',
  /** Every message of the state. */
  FULL: 'full',
  /** One summarising provider call over the messages (capped), then the summary as input. */
  SUMMARY: 'summary',
  /** A function of the state (`contextFn`) builds the input. */
  CUSTOM: 'custom',
} as const;
/** One of ContextMode's values. */
export type ContextMode = (typeof ContextMode)[keyof typeof ContextMode];

/** What a node error does (graph level and per node; default ABORT). */
export const ErrorPolicy = {
  /** The run fails with a GraphExecutionError naming the node. */
  ABORT: 'abort',
  /** The error is recorded in `state.errors` and the run goes on to the node's successor. */
  SKIP: 'skip',
  /** The node runs again (up to `retry.limit`, default 3, with exponential backoff), then aborts. */
  RETRY: 'retry',
} as const;
/** One of ErrorPolicy's values. */
export type ErrorPolicy = (typeof ErrorPolicy)[keyof typeof ErrorPolicy];

/** How the results of a parallel group's members are merged into the state. */
export const MergePolicy = {
  /** A data key several members set takes the value of the last member (declaration order). */
  LAST_WINS: 'last_wins',
  /** A data key several members set keeps the value of the first member (declaration order). */
  FIRST_WINS: 'first_wins',
  /** A data key several members set becomes the list of their values; the output is the list of outputs. */
  APPEND: 'append',
} as const;
/** One of MergePolicy's values. */
export type MergePolicy = (typeof MergePolicy)[keyof typeof MergePolicy];

/** REFERENCE.md §1 defaults. */
export const GRAPH_DEFAULTS = {
  maxSteps: 50,
  stallThreshold: 3,
  retryLimit: 3,
  retryBaseDelayMs: 200,
  retryMaxDelayMs: 5_000,
  contextN: 5,
  summaryMaxTokens: 512,
  /** Characters of transcript a SUMMARY call reads at most (the newest ones). */
  summaryInputChars: 24_000,
} as const;

/** The data key that holds the previous node's output. */
export const LAST_OUTPUT_KEY = '__last_output__';
