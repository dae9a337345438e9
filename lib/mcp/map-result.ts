import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An image (or audio clip) an MCP tool returned, base64-encoded. */
export interface MCPMedia {
  type: 'image' | 'audio';
  mimeType: string;
  /** Base64 data. */
  data: string;
}

/** A tool result mapped to what an agent can use. */
export interface MCPCallResult {
  /** The result as text for the model: text parts as they are, other parts described in brackets. */
  text: string;
  /** True when the server reported the call as failed (`isError`). */
  isError: boolean;
  /** Images and audio of the result (the model is told they exist; callers may show them). */
  media: MCPMedia[];
  /** The server's structured result, when it sent one. */
  structured?: Record<string, unknown>;
  /** The result exactly as received. */
  raw: CallToolResult;
}

/** Bytes of base64 data (without decoding it). */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * Maps a `tools/call` result: text parts are kept; an image or audio part becomes
 * `[image image/png, 1234 bytes]` (tool messages are text: the data stays in `media`); an embedded
 * text resource becomes `[resource <uri>]` and its text; a binary resource or a resource link is
 * described by its URI and type. A result with only `structuredContent` is its JSON.
 */
export function mapCallResult(result: CallToolResult): MCPCallResult {
  const parts: string[] = [];
  const media: MCPMedia[] = [];
  for (const part of result.content ?? []) {
    switch (part.type) {
      case 'text':
        parts.push(part.text);
        break;
      case 'image':
      case 'audio':
        media.push({ type: part.type, mimeType: part.mimeType, data: part.data });
        parts.push(`[${part.type} ${part.mimeType}, ${base64Bytes(part.data)} bytes]`);
        break;
      case 'resource': {
        const resource = part.resource;
        const type = resource.mimeType === undefined ? '' : ` (${resource.mimeType})`;
        if ('text' in resource && typeof resource.text === 'string') parts.push(`[resource ${resource.uri}${type}]\n${resource.text}`);
        else parts.push(`[resource ${resource.uri}${type}, ${base64Bytes(blobOf(resource))} bytes]`);
        break;
      }
      case 'resource_link':
        parts.push(`[resource link ${part.name} ${part.uri}${part.mimeType === undefined ? '' : ` (${part.mimeType})`}]${part.description === undefined ? '' : ` ${part.description}`}`);
        break;
      default:
        parts.push(`[${(part as { type: string }).type} content]`);
    }
  }
  const structured = result.structuredContent;
  if (parts.length === 0 && structured !== undefined) parts.push(JSON.stringify(structured));
  const mapped: MCPCallResult = { text: parts.join('\n'), isError: result.isError === true, media, raw: result };
  if (structured !== undefined) mapped.structured = structured;
  return mapped;
}

function blobOf(resource: object): string {
  const blob = (resource as { blob?: unknown }).blob;
  return typeof blob === 'string' ? blob : '';
}
