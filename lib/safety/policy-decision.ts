/** The three outcomes of a tool policy, as a constant object (`PolicyDecision.DENY === 'deny'`). */
export const PolicyDecision = {
  ALLOW: 'allow',
  REVIEW: 'review',
  DENY: 'deny',
} as const;

/** A policy outcome: `'allow'`, `'review'` (ask a human) or `'deny'`. */
export type PolicyDecision = (typeof PolicyDecision)[keyof typeof PolicyDecision];

/** Every decision value, in evaluation-strength order. */
export const POLICY_DECISIONS: readonly PolicyDecision[] = [PolicyDecision.DENY, PolicyDecision.REVIEW, PolicyDecision.ALLOW];

/** The outcome of evaluating one tool call against a ToolPolicy. */
export interface PolicyResult {
  /** What to do with the call. */
  decision: PolicyDecision;
  /** Why, in words a person (and the model) can read. */
  reason: string;
  /** The rule that decided (`deny:delete_*`, `denyWhen[0]`, …); absent when the default applied. */
  rule?: string;
}

/** True when `value` is one of the decision strings. */
export function isPolicyDecision(value: unknown): value is PolicyDecision {
  return typeof value === 'string' && (POLICY_DECISIONS as readonly string[]).includes(value);
}
