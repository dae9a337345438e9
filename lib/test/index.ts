/**
 * `agentlib/test`: test doubles for code built on agentlib.
 */
export {
  ScriptedProvider,
  type ScriptedProviderOptions,
  type ScriptedReply,
  type ScriptedReplyObject,
  type ScriptedResponder,
  type ScriptedToolCall,
} from '../providers/scripted.js';
