import type { Message } from '../core/message.js';
import { estimateTokensSync, REPLY_PRIMING } from '../agent/token-estimate.js';

/** Estimated tokens of one message in a prompt (chars / 4 plus per-message framing). */
export function messageTokens(message: Message): number {
  return estimateTokensSync([message]) - REPLY_PRIMING;
}
