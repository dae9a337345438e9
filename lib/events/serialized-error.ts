/** An error as carried by events, traces and JSON output. */
export interface SerializedError {
  name: string;
  message: string;
  /** Provider name / HTTP status / tool name etc. when the error carries them. */
  provider?: string;
  status?: number;
  toolName?: string;
  retryable?: boolean;
}

/** Turns anything thrown into a SerializedError (never throws). */
export function serializeError(error: unknown): SerializedError {
  if (error instanceof Error) {
    const out: SerializedError = { name: error.name, message: error.message };
    const fields = error as Error & Record<string, unknown>;
    if (typeof fields['provider'] === 'string') out.provider = fields['provider'];
    if (typeof fields['status'] === 'number') out.status = fields['status'];
    if (typeof fields['toolName'] === 'string') out.toolName = fields['toolName'];
    if (typeof fields['retryable'] === 'boolean') out.retryable = fields['retryable'];
    return out;
  }
  return { name: 'Error', message: typeof error === 'string' ? error : safeString(error) };
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
