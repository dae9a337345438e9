/** A progress report of a running tool call (MCP `notifications/progress` map to it). */
export interface ToolProgress {
  /** How far the call is; grows with each report. */
  progress: number;
  /** The value of `progress` at completion, when known. */
  total?: number;
  /** What the tool is doing now. */
  message?: string;
}
