/** A tool call requested by the model. */
export interface ToolCall {
  /** Provider-assigned (or generated) call id; pairs the call with its result. */
  id: string;
  /** Name of the tool to run. */
  toolName: string;
  /** Argument name → value, as the model sent them. */
  parameters: Record<string, unknown>;
  /**
   * Opaque signature some providers (Gemini) attach to a call; kept as base64 and echoed back
   * byte-for-byte on the next turn.
   */
  thoughtSignature?: string;
  /**
   * Set by an adapter when the model's argument text could not be parsed as a JSON object (the
   * raw text is quoted in it). The agent feeds this back to the model as an error; it never runs
   * the tool with `{}` instead.
   */
  argumentsError?: string;
}

/** Encodes raw signature bytes as base64 for storage on a ToolCall. */
export function encodeThoughtSignature(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Decodes a stored base64 thought signature back into its exact bytes. */
export function decodeThoughtSignature(signature: string): Uint8Array {
  return new Uint8Array(Buffer.from(signature, 'base64'));
}
