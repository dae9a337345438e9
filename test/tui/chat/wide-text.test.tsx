// CJK and emoji take two terminal columns: everything the chat cuts is cut by columns, not by
// code points (a cut by code points makes wide text twice as wide as its budget).
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { displayWidth } from '../../../lib/core/display-width.js';
import { ApprovalPrompt, approvalPromptRows } from '../../../tui/chat/ApprovalPrompt.js';
import { cut, headLines, summarizeArgs } from '../../../tui/chat/chat-format.js';
import { packParts } from '../../../tui/chat/Footer.js';
import { InputLine } from '../../../tui/chat/InputLine.js';
import { toolsText } from '../../../tui/chat/slash-commands.js';
import { ToolCard, toolCardRows } from '../../../tui/chat/ToolCard.js';
import { press, render as renderInAct } from '../../support/ink-act.js';
import { tool } from '../../../lib/tools/tool.js';
import { z } from 'zod';

const CJK = '東京の天気を教えてください。明日は雨ですか';

afterEach(() => cleanup());

function rows(frame: string | undefined): string[] {
  return (frame ?? '').split('\n');
}

describe('wide text is cut by columns', () => {
  test('cut, summarizeArgs and headLines count CJK as two columns and keep graphemes whole', () => {
    assert.equal(cut('漢字漢字漢字', 5), '漢字…');
    assert.equal(displayWidth(cut('漢字漢字漢字', 5)), 5);
    assert.equal(cut('漢字', 4), '漢字', 'fits: unchanged');
    assert.equal(cut('👩‍👩‍👧👩‍👩‍👧 family', 3), '👩‍👩‍👧…');
    const args = summarizeArgs({ q: CJK }, 20);
    assert.equal(args, 'q="東京の天気を教え…');
    assert.equal(displayWidth(args), 20);
    const { lines, hidden } = headLines(`${CJK}\n二行目\n三行目\n四行目`, 3, 12);
    assert.deepEqual(lines, ['東京の天気…', '二行目', '三行目']);
    assert.equal(hidden, 1);
  });

  test('a tool card with CJK arguments and output stays within its width, one row per line', () => {
    const card = { callId: 'c1', toolName: '検索', args: { query: CJK }, status: 'success' as const, output: `${CJK}${CJK}\n結果`, durationMs: 12 };
    const ui = render(<ToolCard card={card} color={false} width={30} />);
    const drawn = rows(ui.lastFrame());
    assert.equal(drawn.length, toolCardRows(card, 30));
    assert.equal(drawn.length, 3);
    for (const row of drawn) assert.ok(displayWidth(row) <= 30, `${row} is ${displayWidth(row)} columns`);
    assert.match(drawn[0] ?? '', /^✓ 検索\(query="東京.*…\) 12ms$/);
    assert.equal(drawn[1], '  ⎿ 東京の天気を教えてくださ…', 'cut to 26 columns: 12 wide characters and the ellipsis (another would make 27)');
  });

  test('the approval prompt with CJK arguments is as tall as approvalPromptRows and no row is wider than the terminal', () => {
    const approval = { id: 1, callId: 'c1', toolName: '検索', args: { query: CJK.repeat(3) }, reason: `${CJK}のため確認が必要です`.repeat(2), requestedAt: 0, timeoutMs: 0 };
    const ui = render(
      <Box width={40}>
        <ApprovalPrompt approval={approval} queued={1} color={false} width={40} onAnswer={() => undefined} />
      </Box>,
    );
    const drawn = rows(ui.lastFrame());
    assert.equal(drawn.length, approvalPromptRows(approval, 1));
    for (const row of drawn) assert.ok(displayWidth(row) <= 40, `${row} is ${displayWidth(row)} columns`);
    assert.match(drawn[1] ?? '', /^│ \? Allow 検索\(\{"query":"東京.*…\)\? +│$/);
  });

  test('/tools cuts a CJK description at 90 columns; footer parts pack by columns', () => {
    const wide = tool({ name: 'search', description: CJK.repeat(10), parameters: z.object({}), execute: () => '' });
    const description = (toolsText([wide]).split('\n')[1] ?? '').replace(/^ {2}search {2}/, '');
    // 44 wide characters and the ellipsis: 89 columns (a 45th would make 91).
    assert.equal(description, `${CJK.repeat(3).slice(0, 44)}…`);
    assert.equal(displayWidth(description), 89);
    const packed = packParts(['エージェント', 'openai/gpt-4o-mini', '1.2k tokens'], 24);
    assert.deepEqual(packed, ['エージェント', 'openai/gpt-4o-mini', '1.2k tokens']);
    for (const row of packed) assert.ok(displayWidth(row) <= 24);
  });

  test('the input line shows the end of long wide text on one row', async () => {
    // Rendered and typed into under act(): the input is on the frame on return (no sleeps).
    const ui = renderInAct(<InputLine active color={false} onSubmit={() => undefined} width={30} />);
    await press(ui.stdin, CJK.repeat(2));
    const drawn = rows(ui.lastFrame());
    assert.equal(drawn.length, 1);
    assert.equal(displayWidth(drawn[0] ?? ''), 30);
    assert.match(drawn[0] ?? '', /^› …[^…]*明日は雨ですか█$/);
  });
});
