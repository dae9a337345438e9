const marker = Symbol.for('agentlib.graph.Send');

/**
 * One target of a scatter: a router returns several `Send`s, and their nodes run in parallel,
 * each with its own `payload` (a function node reads it as `ctx.payload`; an agent node gets a
 * string payload as its prompt).
 *
 * @example
 * graph.addConditionalEdge('plan', (state) => (state.data.topics as string[]).map((t) => new Send('research', t)));
 */
export class Send {
  private readonly [marker] = true;

  constructor(
    readonly node: string,
    readonly payload?: unknown,
  ) {}

  /** True for a Send (works across package copies). */
  static isInstance(value: unknown): value is Send {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
