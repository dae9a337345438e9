export { compileGlob, GlobSyntaxError, isGlobPattern, matchesGlob, type Glob } from './glob.js';
export type { DenyWhenRule } from './deny-when.js';
export { decideToolCall } from './decide-tool-call.js';
export { isPolicyDecision, POLICY_DECISIONS, PolicyDecision, type PolicyResult } from './policy-decision.js';
export { ToolPolicy, type ToolPolicyJSON } from './tool-policy.js';
export type { ToolPolicyOptions } from './tool-policy-options.js';
