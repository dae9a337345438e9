import { PolicyDecision, type PolicyResult } from './policy-decision.js';
import type { ToolPolicy } from './tool-policy.js';

/**
 * What happens to one tool call: the policy's decision (`allow` without a policy), then the tool's
 * own `requiresApproval`, which can only raise `allow` to `review`. A `deny` (pattern or `denyWhen`
 * rule) always stands, so a person can never approve a call the policy forbids; a `review` stays a
 * review. See docs/decisions/0008-deny-wins-over-requires-approval.md.
 */
export function decideToolCall(policy: ToolPolicy | undefined, toolName: string, args: unknown, requiresApproval: boolean): PolicyResult {
  const verdict: PolicyResult = policy?.evaluate(toolName, args) ?? { decision: PolicyDecision.ALLOW, reason: 'no tool policy' };
  if (!requiresApproval || verdict.decision !== PolicyDecision.ALLOW) return verdict;
  return { decision: PolicyDecision.REVIEW, reason: `tool "${toolName}" requires approval`, rule: 'requiresApproval' };
}
