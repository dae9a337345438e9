export * from './errors/index.js';
export { CancellationToken } from './cancellation-token.js';
export { generateId, sequentialIds, type IdGenerator } from './ids.js';
export { isPlainObject, type JsonObject, type JsonSchema, type JsonValue } from './json.js';
export {
  assistantMessage,
  normalizeContent,
  systemMessage,
  toolMessage,
  userMessage,
  type ImagePart,
  type Message,
} from './message.js';
export { Role } from './role.js';
export { closestMatch, editDistance } from './suggest.js';
export { decodeThoughtSignature, encodeThoughtSignature, type ToolCall } from './tool-call.js';
export { AgentUsage, addUsage, emptyUsage, makeUsage, type AgentUsageJSON, type UsageStats, type UsageTotals } from './usage.js';
