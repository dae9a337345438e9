import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { cleanup, render } from 'ink-testing-library';
import { ApprovalPrompt } from '../../../tui/chat/ApprovalPrompt.js';
import type { PendingApproval } from '../../../tui/chat/chat-state.js';

afterEach(() => cleanup());

test('the approval prompt draws no escape sequence from the call: C1 controls (U+009B CSI) in the arguments, ESC in the name and reason', () => {
  const approval: PendingApproval = {
    id: 1,
    callId: 'c1',
    toolName: 'sh\u001b[2Jell',
    // JSON.stringify escapes C0 controls (\u001b) but leaves C1 ones as they are.
    args: { cmd: 'ls\u009b2J\u009b31mred', title: '\u009d0;pwned\u009c' },
    reason: 'policy\u001b]52;c;aGk=\u0007 review',
    requestedAt: 0,
    timeoutMs: 0,
  };
  const ui = render(<ApprovalPrompt approval={approval} queued={0} color={false} width={100} onAnswer={() => undefined} />);
  const frame = ui.lastFrame() ?? '';
  assert.doesNotMatch(frame, /[\u001b\u0007\u0080-\u009f]/, JSON.stringify(frame));
  assert.match(frame, /\? Allow shell\(\{"cmd":"lsred","title":""\}\)\?/);
  assert.match(frame, /policy review/);
});
