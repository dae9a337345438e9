export { EventBus, type EventBusOptions, type EventListener } from './bus.js';
export { AGENT_EVENT_TYPES, observerMethodName } from './event-types.js';
export { hooksToObserver, type HookFunction } from './hooks.js';
export { LoggingObserver, eventLogLevel, formatLogLine, type LogLevel, type LoggingObserverOptions } from './logging-observer.js';
export { observerName, type AgentObserver, type AgentObserverMethods, type ObserverResult } from './observer.js';
export { warnObserverError, type ObserverErrorHandler } from './observer-error.js';
export { REDACTED, SECRET_KEY_PATTERN, isSecretKey, redactSecrets } from './redact.js';
export { serializeError, type SerializedError } from './serialized-error.js';
export { SimpleStepObserver, type SimpleStepCallback, type StepEventData } from './simple-step-observer.js';
export type {
  AgentEvent,
  AgentEventBase,
  AgentEventOf,
  AgentEventPayloads,
  AgentEventType,
  KebabToPascal,
  ObserverMethodName,
  PolicyDecisionValue,
  RunStatus,
  ToolErrorKind,
} from './types.js';
