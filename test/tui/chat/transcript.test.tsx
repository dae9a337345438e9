import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { cleanup, render } from 'ink-testing-library';
import { useCallback, useEffect, useReducer, type ReactNode } from 'react';
import { chatReducer, type ChatAction } from '../../../tui/chat/chat-reducer.js';
import { initialChatState, type ChatState } from '../../../tui/chat/chat-state.js';
import { Transcript } from '../../../tui/chat/Transcript.js';
import { ev } from './helpers.js';

afterEach(() => cleanup());

/**
 * The transcript wired to the chat reducer as ChatApp wires it; `expose` gets the dispatch,
 * `committed` each state React committed (a render React may still throw away under load is not
 * what the chat holds).
 */
function Harness({ expose, committed }: { expose: (dispatch: (action: ChatAction) => void) => void; committed: (state: ChatState) => void }): ReactNode {
  const [state, dispatch] = useReducer(chatReducer, 'm', initialChatState);
  const printed = useCallback((throughId: number) => dispatch({ type: 'printed', throughId }), []);
  expose(dispatch);
  useEffect(() => {
    committed(state);
  }, [committed, state]);
  return <Transcript items={state.finished} epoch={state.transcriptEpoch} color={false} width={80} onPrinted={printed} />;
}

/** Lets React render until `done()` (event-loop turns, however many a loaded machine needs); fails after 5 s. */
async function printed(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  do await new Promise((resolve) => setImmediate(resolve));
  while (!done() && Date.now() < deadline);
  assert.ok(done(), 'the finished turn was printed through <Static> within 5 s');
}

test('1,000 turns through <Static>: every item is printed exactly once and the state holds only what is not printed yet', async () => {
  let state = initialChatState('m');
  let dispatch: (action: ChatAction) => void = () => undefined;
  let largest = 0;
  const ui = render(
    <Harness
      expose={(d) => {
        dispatch = d;
      }}
      committed={(s) => {
        state = s;
        largest = Math.max(largest, s.finished.length);
      }}
    />,
  );
  for (let turn = 0; turn < 1000; turn++) {
    // The committed state can lag the dispatches below: wait for this turn's own "printed" (it
    // moves the epoch), not for an empty transcript, which the previous commit already shows.
    const epoch = state.transcriptEpoch;
    dispatch({ type: 'turn-start', prompt: `question ${turn}`, now: turn });
    dispatch({ type: 'events', events: [ev('run-start', { agentName: 'a', input: 'q', provider: 'p', model: 'm' }, `run_${turn}`), ev('text-delta', { iteration: 1, text: `Paragraph ${turn}.\n\nAnswer ${turn}` }, `run_${turn}`)] });
    dispatch({ type: 'turn-finish', status: 'completed', now: turn + 1 });
    // React renders (and <Static> prints) between turns, as it does between a chat's turns; on a
    // loaded machine that can take more than one turn of the event loop.
    await printed(() => state.transcriptEpoch > epoch && state.finished.length === 0);
  }
  assert.equal(state.finished.length, 0, 'everything printed was dropped');
  assert.ok(largest <= 4, `at most one turn's unprinted items at a time (${largest})`);
  assert.ok(state.transcriptEpoch >= 1000, 'a new <Static> after each printed batch');
  const out = ui.lastFrame() ?? '';
  for (const turn of [0, 1, 499, 998, 999]) {
    for (const text of [`› question ${turn}\n`, `Paragraph ${turn}.\n`, `Answer ${turn}\n`]) assert.equal(out.split(text).length - 1, 1, `${JSON.stringify(text)} printed once`);
  }
  assert.equal(out.match(/^done in /gm)?.length, 1000);
});
