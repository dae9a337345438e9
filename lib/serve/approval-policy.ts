import type { ApprovalDecision, ApprovalHandler, ApprovalRequest } from '../agent/types.js';
import { compileGlob } from '../safety/glob.js';

/**
 * The approver of one HTTP request: a review-gated tool call is approved (once) when its tool
 * name matches one of the request's `approve` globs, and denied otherwise, with a message telling
 * the model why. Never approves "for the session": each request states its own policy.
 */
export function approvalFromGlobs(globs: readonly string[]): ApprovalHandler {
  const compiled = globs.map((glob) => compileGlob(glob));
  return (request: ApprovalRequest): ApprovalDecision => {
    if (compiled.some((glob) => glob.test(request.toolName))) return true;
    return {
      approved: false,
      feedback: `this HTTP request did not approve "${request.toolName}" (it needs review; the request's "approve" list does not match it)`,
    };
  };
}
