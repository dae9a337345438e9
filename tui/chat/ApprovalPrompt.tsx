import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision } from '../../lib/agent/types.js';
import { cut } from './chat-format.js';
import type { PendingApproval } from './chat-state.js';
import { paint } from './chat-theme.js';

/** Props of the approval prompt. */
export interface ApprovalPromptProps {
  approval: PendingApproval;
  /** Approvals waiting behind this one. */
  queued: number;
  color: boolean;
  width: number;
  onAnswer: (callId: string, decision: ApprovalDecision) => void;
  now?: () => number;
}

/**
 * Asks about the first queued approval: y allow once, a allow for this session, n / Esc deny,
 * f deny with feedback to the model (type it, Enter sends, Esc goes back).
 */
export function ApprovalPrompt({ approval, queued, color, width, onAnswer, now = Date.now }: ApprovalPromptProps): ReactNode {
  const [feedback, setFeedbackState] = useState<string | undefined>(undefined);
  // Keys can arrive faster than renders: read the ref, not a stale closure.
  const current = useRef<string | undefined>(undefined);
  const setFeedback = (next: string | undefined): void => {
    current.current = next;
    setFeedbackState(next);
  };
  const [, tick] = useState(0);
  useEffect(() => {
    if (approval.timeoutMs <= 0) return undefined;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [approval.id, approval.timeoutMs]);

  useInput((input, key) => {
    const feedback = current.current;
    if (feedback !== undefined) {
      if (key.return) onAnswer(approval.callId, { approved: false, feedback: feedback.trim() === '' ? 'The user denied this call.' : feedback.trim() });
      else if (key.escape) setFeedback(undefined);
      else if (key.backspace || key.delete) setFeedback(feedback.slice(0, -1));
      else if (!key.ctrl && !key.meta && input !== '') setFeedback(feedback + input.replace(/[\r\n]/g, ' '));
      return;
    }
    if (key.ctrl || key.meta) return;
    const choice = input.toLowerCase();
    if (choice === 'y') onAnswer(approval.callId, true);
    else if (choice === 'a') onAnswer(approval.callId, { approved: true, scope: 'session' });
    else if (choice === 'n' || key.escape) onAnswer(approval.callId, false);
    else if (choice === 'f') setFeedback('');
  });

  const args = JSON.stringify(approval.args);
  const left = approval.timeoutMs > 0 ? Math.max(0, Math.ceil((approval.requestedAt + approval.timeoutMs - now()) / 1000)) : undefined;
  return (
    <Box flexDirection="column" borderStyle="round" {...(color ? { borderColor: 'magenta' } : {})} paddingX={1}>
      <Text>
        <Text {...paint(color, { color: 'magenta', bold: true })}>? </Text>
        <Text {...paint(color, { bold: true })}>Allow {approval.toolName}</Text>
        <Text>({cut(args, Math.max(20, width - approval.toolName.length - 16))})?</Text>
      </Text>
      {approval.reason !== '' ? <Text {...paint(color, { dimColor: true })}>{approval.reason}</Text> : null}
      {feedback === undefined ? (
        <Text>
          <Text {...paint(color, { bold: true })}>y</Text> allow once · <Text {...paint(color, { bold: true })}>a</Text> allow for this session ·{' '}
          <Text {...paint(color, { bold: true })}>n</Text>/esc deny · <Text {...paint(color, { bold: true })}>f</Text> deny with feedback
        </Text>
      ) : (
        <Text>
          Feedback for the model: {feedback}
          <Text {...paint(color, { inverse: true })}> </Text>
          <Text {...paint(color, { dimColor: true })}> (enter sends · esc back)</Text>
        </Text>
      )}
      {left !== undefined || queued > 0 ? (
        <Text {...paint(color, { dimColor: true })}>
          {[left !== undefined ? `times out in ${left}s (then denied)` : '', queued > 0 ? `${queued} more approval${queued === 1 ? '' : 's'} queued` : ''].filter(Boolean).join(' · ')}
        </Text>
      ) : null}
    </Box>
  );
}
