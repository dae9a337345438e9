import type { ToolContext } from 'agentlib';

/** A ToolContext for calling a template tool's invoke() directly in tests. */
export function toolContext<C>(context: C, signal: AbortSignal = new AbortController().signal): ToolContext<C> {
  return { signal, runId: 'run-test', callId: 'call-test', toolName: 'test', context };
}
