import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { displayWidth } from '../../../lib/core/display-width.js';
import { TraceViewer } from '../../../tui/trace-viewer/TraceViewer.js';
import { viewerLayout } from '../../../tui/trace-viewer/layout.js';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { cleanup, press, render } from '../../support/ink-act.js';
import { bigTrace, cjkTrace, sampleTrace, step, T0 } from './traces.js';

const DOWN = '\u001b[B';
const ESC = '\u001b';

// render() and press() run under React's act() (../../support/ink-act.ts): no sleeps to let Ink settle.

/** The line of the selected row (marked with `›`). */
function selectedLine(frame: string): string {
  return frame.split('\n').find((line) => line.startsWith('›')) ?? '';
}

/** The detail pane: everything after its title line. */
function detail(frame: string): string {
  const lines = frame.split('\n');
  return lines.slice(lines.findIndex((line) => line.startsWith('─ '))).join('\n');
}

describe('TraceViewer', () => {
  afterEach(() => cleanup());

  test('a trace its run never finished says "incomplete" in the header', async () => {
    const { status: _status, ...run } = sampleTrace().toJSON();
    const partial = new AgentTrace({ ...run, incomplete: true });
    const { lastFrame } = render(<TraceViewer trace={partial} />);
    const header = (lastFrame() ?? '').split('\n')[0] ?? '';
    assert.match(header, / · incomplete/);
  });

  test('the first frame shows the header totals, the first rows and the first step details', async () => {
    const { lastFrame } = render(<TraceViewer trace={sampleTrace()} />);
    const frame = lastFrame() ?? '';
    assert.match(frame, /trace weather · openai\/gpt-4o · completed · run run_1/);
    assert.match(frame, /duration 400ms · steps 5 · llm 2 · tools 2 · errors 1 · tokens 160 \(130 in \/ 30 out\) · cost \$0\.0050/);
    assert.match(selectedLine(frame), /^›▾ ✓ llm_call gpt-4o\s+100ms\s+60\s+\$0\.0020 █+/);
    assert.match(frame, /x tool_execution get_time\s+30ms/);
    assert.match(detail(frame), /── messages ──\n1 message, 2 tools sent \(shown: the user message and what followed it\)\nuser: What are the weather and the time in Oulu\?\nassistant: thinking\n→ get_weather\(\{"city":"Oulu"\}\)\n→ get_time/);
    assert.doesNotMatch(detail(frame), /── answer ──/, 'the reply closes the messages: not shown twice');
    assert.match(frame, /q quit/);
  });

  test('the detail pane shows the prompt and the run input / output with the first step; an older trace without messages shows the counts', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={sampleTrace()} />);
    assert.match(detail(lastFrame() ?? ''), /user: What are the weather and the time in Oulu\?/);
    await press(stdin, '\t', 'G', '\t');
    assert.match(detail(lastFrame() ?? ''), /── run input ──\nWhat are the weather and the time in Oulu\?\n── run output ──\nSunny, 21 °C in Oulu/);
    await press(stdin, 'G');
    const last = detail(lastFrame() ?? '');
    assert.match(selectedLine(lastFrame() ?? ''), /llm_call gpt-4o/);
    assert.match(last, /── messages ──\n5 messages\n── answer ──\nSunny, 21 °C in Oulu/, 'no messages recorded: the counts and the answer');
    assert.doesNotMatch(last, /run input/, 'the run fields go with the first step only');
    // The text filter finds a step by the text of its messages.
    await press(stdin, '/', ...'time in oulu', '\r');
    assert.match(lastFrame() ?? '', /text: "time in oulu" · 1\/5 steps/);
  });

  test('an older trace saying "1 messages, 1 tools" reads "1 message, 1 tool"; message text cannot drive the terminal', async () => {
    const trace = new AgentTrace({
      runId: 'run_old',
      startedAt: T0,
      steps: [
        step({ id: 'a', type: 'llm_call', name: 'm', input: '1 messages, 1 tools', output: 'hi' }),
        step({ id: 'b', type: 'llm_call', name: 'm', startedAt: T0 + 1, input: '1 message, 0 tools', messages: [{ role: 'user', content: 'evil\u001b]52;c;aGk=\u0007 \u009b2Jprompt' }, { role: 'assistant', content: 'ok' }] }),
      ],
    });
    const { lastFrame, stdin } = render(<TraceViewer trace={trace} />);
    assert.match(detail(lastFrame() ?? ''), /── messages ──\n1 message, 1 tool\n/);
    await press(stdin, 'j');
    const frame = lastFrame() ?? '';
    assert.match(detail(frame), /user: evil prompt/);
    assert.doesNotMatch(frame, /\u0007|\u009b|\]52;/);
  });

  test('a cost far below a cent is never $0.0000: the header and detail show it, the cost column bounds it', async () => {
    const trace = new AgentTrace({
      runId: 'run_cheap',
      agentName: 'cheap',
      startedAt: T0,
      endedAt: T0 + 100,
      status: 'completed',
      steps: [step({ id: 'c1', type: 'llm_call', name: 'gpt-4o-mini', durationMs: 100, usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 }, costUsd: 0.00002 })],
    });
    const { lastFrame } = render(<TraceViewer trace={trace} />);
    const frame = lastFrame() ?? '';
    assert.match(frame, /errors 0 · tokens 120 · cost \$0\.000020\n/, 'the in / out split gives way so the cost fits the 99 columns');
    assert.match(selectedLine(frame), /llm_call gpt-4o-mini\s+100ms\s+120\s+<\$0\.0001 █/);
    assert.match(detail(frame), /cost \$0\.000020/);
    assert.doesNotMatch(frame, /\$0\.0000(?!\d)/);
  });

  test('parallel tool calls start in the same waterfall column', async () => {
    const { lastFrame } = render(<TraceViewer trace={sampleTrace()} />);
    const lines = (lastFrame() ?? '').split('\n');
    const barStart = (name: string): number => {
      const line = lines.find((l) => l.includes(`tool_execution ${name}`)) ?? '';
      return line.indexOf('█');
    };
    assert.ok(barStart('get_time') > 0);
    assert.equal(barStart('get_time'), barStart('get_weather'));
  });

  test('j / ↓ move the selection and the detail pane follows; ← folds; Enter toggles', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={sampleTrace()} />);
    await press(stdin, 'j');
    assert.match(selectedLine(lastFrame() ?? ''), /tool_selection get_weather, get_time/);
    assert.match(detail(lastFrame() ?? ''), /── reasoning ──\nneed both the weather and the time/);
    await press(stdin, DOWN);
    assert.match(selectedLine(lastFrame() ?? ''), /x tool_execution get_time/);
    assert.match(detail(lastFrame() ?? ''), /── error ──\nToolExecutionError: clock unavailable/);
    assert.match(detail(lastFrame() ?? ''), /── arguments ──\n\{\n {2}"tz": "Europe\/Helsinki"\n\}/);
    await press(stdin, 'h', 'h');
    let frame = lastFrame() ?? '';
    assert.match(selectedLine(frame), /▸ ✓ tool_selection/, 'the parent is selected and folded');
    assert.doesNotMatch(frame, /tool_execution get_time/);
    await press(stdin, '\r');
    frame = lastFrame() ?? '';
    assert.match(frame, /tool_execution get_time/, 'Enter unfolds again');
  });

  test('e shows errors only (with their ancestors); e again shows everything', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={sampleTrace()} />);
    await press(stdin, 'e');
    const frame = lastFrame() ?? '';
    assert.match(frame, /errors only: on · text: — · 3\/5 steps/);
    assert.match(frame, /tool_execution get_time/);
    assert.doesNotMatch(frame, /tool_execution get_weather/);
    await press(stdin, 'e');
    assert.match(lastFrame() ?? '', /errors only: off · text: — · 5\/5 steps/);
  });

  test('t cycles the step type filter', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={sampleTrace()} />);
    await press(stdin, 't');
    assert.match(lastFrame() ?? '', /type: llm_call · errors only: off · text: — · 2\/5 steps/);
    await press(stdin, 't', 't', 't');
    assert.match(lastFrame() ?? '', /type: all/);
  });

  test('/ opens the text filter: typing shows the prompt, Enter applies, Esc clears', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={sampleTrace()} />);
    await press(stdin, '/', 'w', 'e', 'a', 't');
    assert.match(lastFrame() ?? '', /^\/weat .*Enter apply · Esc clear/m);
    assert.match(lastFrame() ?? '', /5\/5|tool_execution get_time/, 'not applied while typing');
    await press(stdin, '\u007f', 't', 'h', '\r');
    let frame = lastFrame() ?? '';
    assert.match(frame, /text: "weath" · 3\/5 steps/);
    assert.match(frame, /tool_execution get_weather/);
    assert.doesNotMatch(frame, /tool_execution get_time/);
    await press(stdin, ESC);
    frame = lastFrame() ?? '';
    assert.match(frame, /text: — · 5\/5 steps/);
  });

  test('Tab moves the keys to the detail pane, which scrolls', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={bigTrace(2)} />);
    await press(stdin, 'j', 'j');
    assert.match(detail(lastFrame() ?? ''), /^─ details 1-\d+\/\d+/);
    await press(stdin, '\t');
    assert.match(lastFrame() ?? '', /▶ details/);
    await press(stdin, 'j');
    assert.match(detail(lastFrame() ?? ''), /^─ ▶ details 2-/);
    assert.match(selectedLine(lastFrame() ?? ''), /tool_execution search/, 'the selection stays put');
    await press(stdin, '\t', 'j');
    assert.match(selectedLine(lastFrame() ?? ''), /tool_execution fetch/);
  });

  test('a 1,000-step trace renders only the window of rows, and End scrolls to the last step', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={bigTrace()} />);
    let frame = lastFrame() ?? '';
    const stepRows = frame.split('\n').filter((line) => /(llm_call|tool_selection|tool_execution) /.test(line) && /^[›\s][\s▾▸]/.test(line));
    assert.ok(stepRows.length > 3 && stepRows.length < 24, `rows drawn: ${stepRows.length}`);
    assert.match(frame, /1-\d+\/1000/);
    await press(stdin, 'G');
    frame = lastFrame() ?? '';
    assert.match(selectedLine(frame), /tool_execution summarize/);
    assert.match(frame, /\d+-1000\/1000/);
  });

  test('keys arriving in one chunk are taken one by one ("jj", "h" + Enter, "/get_time" + Enter)', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={sampleTrace()} />);
    await press(stdin, 'jj');
    assert.match(selectedLine(lastFrame() ?? ''), /x tool_execution get_time/);
    await press(stdin, 'h\r');
    assert.match(selectedLine(lastFrame() ?? ''), /▸ ✓ tool_selection/);
    await press(stdin, '/get_time\r');
    assert.match(lastFrame() ?? '', /text: "get_time" · 2\/5 steps/, "the folded selection hides its children");
  });

  test('CJK step names are cut and padded by terminal columns: every row is exactly the width, bars intact', async () => {
    const { lastFrame, stdin } = render(<TraceViewer trace={cjkTrace()} />);
    const width = viewerLayout(100, 30).width; // ink-testing-library's terminal is 100 columns wide
    const lines = stripVTControlCharacters(lastFrame() ?? '').split('\n');
    const rows = lines.filter((line) => /(llm_call|tool_selection|tool_execution)/.test(line) && /^[›\s][\s▾▸]/.test(line));
    assert.equal(rows.length, 4);
    for (const row of rows) {
      assert.equal(displayWidth(row), width, `row is ${width} columns: ${row}`);
      assert.ok(row.endsWith('█'), `the bar reaches the last column: ${row}`);
    }
    assert.match(rows[2] ?? '', /tool_execution 東京の天気予報.*…/, 'a long name is cut with an ellipsis');
    // The time column starts in the same terminal column on every row.
    const timeColumn = (row: string): number => displayWidth(row.slice(0, row.search(/\d+(\.\d+)?(ms|s) /)));
    assert.equal(new Set(rows.map(timeColumn)).size, 1, rows.join('\n'));
    // The detail pane wraps CJK output by columns too.
    await press(stdin, 'j', 'j');
    for (const line of stripVTControlCharacters(lastFrame() ?? '').split('\n')) assert.ok(displayWidth(line) <= width, `fits: ${line}`);
    assert.match(detail(lastFrame() ?? ''), /晴れ、最高気温は/);
  });

  test('q quits', async () => {
    let quit = 0;
    const { stdin } = render(<TraceViewer trace={sampleTrace()} onQuit={() => quit++} />);
    await press(stdin, 'q');
    assert.equal(quit, 1);
  });
});
