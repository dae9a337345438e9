import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ApprovalDecision } from '../../lib/agent/types.js';
import { displayWidth } from '../../lib/core/display-width.js';
import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import { cut } from './chat-format.js';
import type { PendingApproval } from './chat-state.js';
import { paint } from './chat-theme.js';
import type { FrameCounter } from './frame-counter.js';
import { tailToWidth } from '../../lib/core/display-width.js';

/** Props of the approval prompt. */
export interface ApprovalPromptProps {
  approval: PendingApproval;
  /** Approvals waiting behind this one. */
  queued: number;
  color: boolean;
  width: number;
  onAnswer: (callId: string, decision: ApprovalDecision) => void;
  now?: () => number;
  /**
   * Frames Ink has drawn: keys are taken only once a frame drawn after the prompt appeared (so
   * a key typed before the prompt was on screen cannot answer it). Without it, keys count from
   * the prompt's first effect (right after its first frame when Ink renders synchronously).
   */
  frames?: FrameCounter | undefined;
}

type Choice = 'once' | 'session' | 'deny' | 'feedback';

/** The numbered choices, in order, with their letter keys. */
const CHOICES: readonly { choice: Choice; label: string; keys: string }[] = [
  { choice: 'once', label: 'Allow once', keys: 'y' },
  { choice: 'session', label: 'Allow for this session', keys: 'a' },
  { choice: 'deny', label: 'Deny', keys: 'n / esc' },
  { choice: 'feedback', label: 'Deny and tell the model why', keys: 'f' },
];

/** Rows the prompt takes (border, header, reason, the choices — taller than the feedback line — and the timeout line); every row is cut to the width. */
export function approvalPromptRows(approval: PendingApproval, queued: number): number {
  return 2 + 1 + (approval.reason !== '' ? 1 : 0) + CHOICES.length + (approval.timeoutMs > 0 || queued > 0 ? 1 : 0);
}

const FEEDBACK_LABEL = 'Feedback for the model: ';
const FEEDBACK_KEYS = ' (enter sends · esc back)';

/** Every key that picks a choice: its number (1–4) and its letter. */
const CHOICE_KEYS: Readonly<Record<string, Choice>> = Object.fromEntries(
  CHOICES.flatMap(({ choice, keys }, index) => [[String(index + 1), choice], [keys.charAt(0), choice]]),
);

/**
 * Asks about the first queued approval with numbered choices: 1 / y allow once, 2 / a allow for
 * this session, 3 / n / Esc deny, 4 / f deny with feedback to the model (type it, Enter sends, Esc
 * goes back).
 */
export function ApprovalPrompt({ approval, queued, color, width, onAnswer, now = Date.now, frames }: ApprovalPromptProps): ReactNode {
  // The frame count when the prompt first rendered: a later frame has drawn it.
  const [firstFrame] = useState(() => frames?.count ?? 0);
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
  }, []);
  const shown = (): boolean => (frames === undefined ? mounted.current : frames.count > firstFrame);
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
    // Typed before the prompt was on the screen (meant for the input line, say): not an answer.
    if (!shown()) return;
    const feedback = current.current;
    if (feedback !== undefined) {
      if (key.return) onAnswer(approval.callId, { approved: false, feedback: feedback.trim() === '' ? 'The user denied this call.' : feedback.trim() });
      else if (key.escape) setFeedback(undefined);
      else if (key.backspace || key.delete) setFeedback(feedback.slice(0, -1));
      else if (!key.ctrl && !key.meta && input !== '') setFeedback(feedback + input.replace(/[\r\n]/g, ' '));
      return;
    }
    // Ink reports Esc with `meta` set too: only other meta keys are ignored.
    if (key.ctrl || (key.meta && !key.escape)) return;
    const choice = key.escape ? 'deny' : CHOICE_KEYS[input.toLowerCase()];
    if (choice === 'once') onAnswer(approval.callId, true);
    else if (choice === 'session') onAnswer(approval.callId, { approved: true, scope: 'session' });
    else if (choice === 'deny') onAnswer(approval.callId, false);
    else if (choice === 'feedback') setFeedback('');
  });

  // The call is the model's: its tool name, arguments and the policy's reason never drive the
  // terminal. JSON escapes C0 controls but not C1 ones (U+009B is an 8-bit CSI): sanitised.
  const toolName = sanitizeForTerminal(approval.toolName).replace(/\s+/g, ' ');
  const args = sanitizeForTerminal(JSON.stringify(approval.args) ?? '{}');
  const reason = sanitizeForTerminal(approval.reason).replace(/\s+/g, ' ');
  const left = approval.timeoutMs > 0 ? Math.max(0, Math.ceil((approval.requestedAt + approval.timeoutMs - now()) / 1000)) : undefined;
  // Inside the border and padding; every row is cut to it (the height is approvalPromptRows).
  const inner = Math.max(1, width - 4);
  const feedbackRoom = Math.max(4, inner - displayWidth(FEEDBACK_LABEL) - 1 - displayWidth(FEEDBACK_KEYS));
  return (
    <Box flexDirection="column" borderStyle="round" {...(color ? { borderColor: 'magenta' } : {})} paddingX={1}>
      <Text wrap="truncate-end">
        <Text {...paint(color, { color: 'magenta', bold: true })}>? </Text>
        <Text {...paint(color, { bold: true })}>Allow {toolName}</Text>
        <Text>({cut(args, Math.max(8, inner - displayWidth(toolName) - 11))})?</Text>
      </Text>
      {approval.reason !== '' ? (
        <Text wrap="truncate-end" {...paint(color, { dimColor: true })}>
          {reason}
        </Text>
      ) : null}
      {feedback === undefined ? (
        <Box flexDirection="column">
          {CHOICES.map((choice, index) => (
            <Text key={choice.keys} wrap="truncate-end">
              <Text {...paint(color, { bold: true })}>
                {index + 1}
              </Text>{' '}
              {choice.label} <Text {...paint(color, { dimColor: true })}>({choice.keys})</Text>
            </Text>
          ))}
        </Box>
      ) : (
        <Text wrap="truncate-end">
          {FEEDBACK_LABEL}
          {tailToWidth(feedback, feedbackRoom)}
          <Text {...paint(color, { inverse: true })}>{color ? ' ' : '█'}</Text>
          <Text {...paint(color, { dimColor: true })}>{FEEDBACK_KEYS}</Text>
        </Text>
      )}
      {left !== undefined || queued > 0 ? (
        <Text wrap="truncate-end" {...paint(color, { dimColor: true })}>
          {[left !== undefined ? `times out in ${left}s (then denied)` : '', queued > 0 ? `${queued} more approval${queued === 1 ? '' : 's'} queued` : ''].filter(Boolean).join(' · ')}
        </Text>
      ) : null}
    </Box>
  );
}
