const marker = Symbol.for('agentlib.graph.InterruptRequest');

/**
 * Yielded by a generator node to ask a person: the run stops with `interrupted: true` and an
 * `interruptId`; `graph.resume(interruptId, response)` sends `response` back as the value of the
 * `yield`.
 *
 * @example
 * graph.addNode('review', async function* (state) {
 *   const answer = yield new InterruptRequest('Approve the draft?', { draft: state.data.draft });
 *   return { data: { approved: answer === 'yes' } };
 * });
 */
export class InterruptRequest {
  private readonly [marker] = true;

  /**
   * @param prompt What the person is asked.
   * @param payload Anything JSON the person needs to answer (shown by the CLI and the server).
   */
  constructor(
    readonly prompt: string,
    readonly payload?: unknown,
  ) {}

  /** True for an InterruptRequest (works across package copies). */
  static isInstance(value: unknown): value is InterruptRequest {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}

/** Shorthand: `yield interrupt('Approve?')`. */
export function interrupt(prompt: string, payload?: unknown): InterruptRequest {
  return new InterruptRequest(prompt, payload);
}
