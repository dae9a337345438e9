import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { cleanup, render } from 'ink-testing-library';
import { chatReducer } from '../../../tui/chat/chat-reducer.js';
import { initialChatState } from '../../../tui/chat/chat-state.js';
import { TracePane } from '../../../tui/chat/TracePane.js';
import { ev } from './helpers.js';

afterEach(() => cleanup());

test('the trace pane draws a cancelled run with ! (not ✓), and hostile tool text without escapes', () => {
  const esc = '\u001b]0;title\u0007\u001b[2J';
  let state = chatReducer(initialChatState('m'), { type: 'turn-start', prompt: 'hi', now: 0 });
  state = chatReducer(state, {
    type: 'events',
    events: [
      ev('run-start', { agentName: 'a', input: 'hi', provider: 'p', model: 'm' }),
      ev('iteration-start', { iteration: 1 }),
      ev('tool-error', { callId: 'c1', toolName: `rm${esc}`, args: {}, error: { name: 'ToolExecutionError', message: `bad\u009b31m${esc}` }, kind: 'execution', durationMs: 3 }),
      ev('cancelled', { stage: 'tools', iteration: 1 }),
      ev('run-end', { agentName: 'a', status: 'cancelled', content: '', iterations: 1, durationMs: 5, usage: {} as never }),
    ],
  });
  const frame = render(<TracePane rows={state.traceRows} color={false} width={80} maxRows={10} />).lastFrame() ?? '';
  assert.match(frame, /│ ! run a \(p\/m\) cancelled 5ms/);
  assert.match(frame, /│ {3}! iteration 1/);
  assert.match(frame, /│ {5}x tool rm execution: bad 3ms/);
  assert.match(frame, /│ {3}! cancelled tools/);
  assert.doesNotMatch(frame, /✓/);
  assert.doesNotMatch(frame, /[\u001b\u0007\u0080-\u009f]/);
});
