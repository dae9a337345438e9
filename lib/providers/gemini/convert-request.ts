import { FunctionCallingConfigMode, type Content, type GenerateContentConfig, type Part, type Tool as GeminiTool, type ToolConfig } from '@google/genai';
import type { Message } from '../../core/message.js';
import { reasoningPartsFor, type ReasoningPart } from '../../core/reasoning-part.js';
import { Role } from '../../core/role.js';
import { decodeThoughtSignature } from '../../core/tool-call.js';
import type { ProviderRequest, ProviderToolSpec, ToolChoice } from '../spec.js';
import { isGeneratedCallId } from './convert-response.js';
import { GEMINI } from './errors.js';
import { sanitizeGeminiSchema, sanitizeToolParameters } from './sanitize-schema.js';

/** The stored base64 signature decoded and re-encoded: the exact bytes the API sent, as the SDK wants them. */
function signatureForWire(signature: string): string {
  return Buffer.from(decodeThoughtSignature(signature)).toString('base64');
}

/** The `response` object of a functionResponse part: `output` (parsed when it is JSON) or `error`. */
export function functionResponseBody(message: Message): Record<string, unknown> {
  if (message.isError) return { error: message.content };
  try {
    return { output: JSON.parse(message.content) as unknown };
  } catch {
    return { output: message.content };
  }
}

function userParts(message: Message): Part[] {
  const parts: Part[] = [];
  if (message.content !== '') parts.push({ text: message.content });
  for (const image of message.images ?? []) parts.push({ inlineData: { data: image.data, mimeType: image.mediaType } });
  return parts;
}

type TextSignature = Extract<ReasoningPart, { type: 'signature' }>;

/** The Gemini text-part signatures of a model message (parts of other providers are never sent). */
function textSignatures(message: Message): TextSignature[] {
  return reasoningPartsFor(message.reasoningParts, GEMINI).filter((part): part is TextSignature => part.type === 'signature');
}

/** Where a signed part's text is in `content`, at or after `from`: its start and the text matched; undefined when it is not there. */
function locate(content: string, signed: TextSignature & { text: string }, from: number, expected: number): { at: number; text: string } | undefined {
  const at = Math.min(Math.max(expected, from), content.length);
  if (signed.text === '' || content.startsWith(signed.text, at)) return { at, text: signed.text };
  const found = content.indexOf(signed.text, from);
  if (found >= 0) return { at: found, text: signed.text };
  // The answer may have been trimmed (the agent trims a streamed answer): match the trimmed text.
  const trimmed = signed.text.trim();
  const near = trimmed === '' ? -1 : content.indexOf(trimmed, from);
  return near >= 0 ? { at: near, text: trimmed } : undefined;
}

/**
 * The text of a model message as parts, each signed part on its own with its own text and
 * signature, the unsigned text around them in parts without one (Gemini: never merge a part that
 * has a signature with another part). Signatures whose text is no longer in the answer come back
 * in `unplaced`.
 */
function signedTextParts(content: string, signatures: readonly (TextSignature & { text: string })[]): { parts: Part[]; unplaced: string[] } {
  const parts: Part[] = [];
  const unplaced: string[] = [];
  let cursor = 0;
  // How far the answer moved from the reply's text (a trimmed start), learnt from placed parts.
  let shift = 0;
  for (const signed of signatures) {
    const expected = (signed.offset ?? cursor) - shift;
    const found = locate(content, signed, cursor, expected);
    if (!found) {
      unplaced.push(signatureForWire(signed.signature));
      continue;
    }
    if (found.at > cursor) parts.push({ text: content.slice(cursor, found.at) });
    parts.push({ text: found.text, thoughtSignature: signatureForWire(signed.signature) });
    cursor = found.at + found.text.length;
    if (signed.offset !== undefined && found.text !== '') shift = signed.offset + signed.text.indexOf(found.text) - found.at;
  }
  if (cursor < content.length) parts.push({ text: content.slice(cursor) });
  return { parts, unplaced };
}

/**
 * A model message as parts: its text, its function calls (each with its own signature), then
 * text-part signatures that have no place in the text on empty text parts — where Gemini itself
 * sends a signature with no text. Signatures recorded with their part's text and offset (see
 * ReasoningPart) go back on that text, each signed part separate; signatures recorded without
 * (older histories) go on the text as one part (the first signature) and on empty parts after the calls.
 */
function modelParts(message: Message): Part[] {
  const parts: Part[] = [];
  const signatures = message.reasoningParts ? textSignatures(message) : [];
  let unplaced: string[];
  if (signatures.length > 0 && signatures.every((s): s is TextSignature & { text: string } => s.text !== undefined)) {
    const text = signedTextParts(message.content, signatures);
    parts.push(...text.parts);
    unplaced = text.unplaced;
  } else {
    unplaced = signatures.map((s) => signatureForWire(s.signature));
    if (message.content !== '') {
      const part: Part = { text: message.content };
      const signature = unplaced.shift();
      if (signature !== undefined) part.thoughtSignature = signature;
      parts.push(part);
    }
  }
  for (const call of message.toolCalls ?? []) {
    const part: Part = { functionCall: { ...apiCallId(call.id), name: call.toolName, args: call.parameters } };
    if (call.thoughtSignature !== undefined) part.thoughtSignature = signatureForWire(call.thoughtSignature);
    parts.push(part);
  }
  for (const signature of unplaced) parts.push({ text: '', thoughtSignature: signature });
  return parts;
}

/** `{ id }` for a call id the API sent (echoed as it was); nothing for one the adapter generated. */
function apiCallId(id: string | undefined): { id?: string } {
  return id !== undefined && id !== '' && !isGeneratedCallId(id) ? { id } : {};
}

function toolParts(message: Message): Part[] {
  return [{ functionResponse: { ...apiCallId(message.toolCallId), name: message.toolName ?? '', response: functionResponseBody(message) } }];
}

/**
 * Converts agentlib messages to Gemini contents: roles `user`/`model`, tool results as
 * functionResponse parts in a user turn (results of one parallel set share a turn), and
 * consecutive turns of the same role merged. A call id the API sent goes back on its functionCall
 * and functionResponse; generated ids are not sent. SYSTEM messages are returned apart.
 */
export function toGeminiContents(messages: readonly Message[]): { contents: Content[]; system: string[] } {
  const contents: Content[] = [];
  const system: string[] = [];
  for (const message of messages) {
    if (message.role === Role.SYSTEM) {
      if (message.content !== '') system.push(message.content);
      continue;
    }
    const role = message.role === Role.ASSISTANT ? 'model' : 'user';
    const parts = message.role === Role.ASSISTANT ? modelParts(message) : message.role === Role.TOOL ? toolParts(message) : userParts(message);
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  }
  return { contents, system };
}

/** Tools as one functionDeclarations entry with sanitised parameter schemas. */
export function toGeminiTools(tools: readonly ProviderToolSpec[]): GeminiTool[] {
  return [
    {
      functionDeclarations: tools.map((tool) => {
        const parameters = sanitizeToolParameters(tool.parameters);
        return { name: tool.name, description: tool.description, ...(parameters ? { parameters: parameters } : {}) };
      }),
    },
  ];
}

/** toolChoice → functionCallingConfig. */
export function toGeminiToolConfig(choice: ToolChoice): ToolConfig {
  if (choice === 'auto') return { functionCallingConfig: { mode: FunctionCallingConfigMode.AUTO } };
  if (choice === 'none') return { functionCallingConfig: { mode: FunctionCallingConfigMode.NONE } };
  if (choice === 'required') return { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY } };
  return { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.toolName] } };
}

/** The parts of a generateContent call: model, contents and config (without the abort signal). */
export function toGeminiRequest(request: ProviderRequest): { model: string; contents: Content[]; config: GenerateContentConfig } {
  const { contents, system } = toGeminiContents(request.messages);
  const config: GenerateContentConfig = {};
  const instructions = [request.system ?? '', ...system].filter((s) => s !== '');
  if (instructions.length > 0) config.systemInstruction = { parts: [{ text: instructions.join('\n\n') }] };
  if (request.tools && request.tools.length > 0) {
    config.tools = toGeminiTools(request.tools);
    if (request.toolChoice !== undefined) config.toolConfig = toGeminiToolConfig(request.toolChoice);
  }
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.responseFormat) {
    config.responseMimeType = 'application/json';
    config.responseSchema = sanitizeGeminiSchema(request.responseFormat.schema);
  }
  return { model: request.model, contents, config };
}
