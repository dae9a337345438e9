import type { DenyWhenRule } from './deny-when.js';
import type { PolicyDecision } from './policy-decision.js';

/** Options of a ToolPolicy. Patterns are globs over tool names (`*`, `?`, `[abc]`), full match. */
export interface ToolPolicyOptions {
  /** Tools that run without asking. */
  allow?: readonly string[];
  /** Tools that need a human's approval first. */
  review?: readonly string[];
  /** Tools that never run. */
  deny?: readonly string[];
  /** Argument-level conditions that deny a call (checked with `deny`, before `review`). */
  denyWhen?: readonly DenyWhenRule[];
  /** The decision when no rule matches. Default `'review'`. */
  default?: PolicyDecision;
}
