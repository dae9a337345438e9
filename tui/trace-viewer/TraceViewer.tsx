import { Box } from 'ink';
import { useMemo } from 'react';
import type { TraceData } from '../../lib/trace/trace-data.js';
import { traceTotals } from '../../lib/trace/totals.js';
import { DetailPane } from './DetailPane.js';
import { detailLines } from './detail-lines.js';
import { FilterBar } from './FilterBar.js';
import { Header } from './Header.js';
import { HelpLine } from './HelpLine.js';
import { viewerLayout } from './layout.js';
import { StepTree } from './StepTree.js';
import { buildTreeModel } from './tree-model.js';
import { useTerminalSize } from '../hooks/use-terminal-size.js';
import { useTreeState } from './use-tree-state.js';
import { useViewerInput } from './use-viewer-input.js';

interface Props {
  trace: TraceData;
  /** Called when the user quits with `q` (Ink's `exit()` is called too). */
  onQuit?: () => void;
}

/** The full-screen trace viewer: header, filter bar, step tree + waterfall, detail pane, help line. */
export function TraceViewer({ trace, onQuit }: Props) {
  const { columns, rows: terminalRows } = useTerminalSize();
  const model = useMemo(() => buildTreeModel(trace), [trace]);
  const layout = viewerLayout(columns, terminalRows, model.nodes.length);
  const totals = useMemo(() => traceTotals(trace), [trace]);
  const tree = useTreeState(model, layout.treeRows);
  const node = tree.rows[tree.selected]?.node;
  const step = node?.step;
  // The first step (a root) also shows the run's own input and output.
  const run = node?.index === 0 ? trace : undefined;
  const lines = useMemo(() => detailLines(step, model.runStart, layout.width, run), [step, model.runStart, layout.width, run]);
  const input = useViewerInput({
    dispatch: tree.dispatch,
    text: tree.state.filter.text,
    selectedId: step?.id,
    detailLineCount: lines.length,
    detailRows: layout.detailRows,
    onQuit,
  });
  return (
    <Box flexDirection="column" width={layout.width} height={layout.height}>
      <Header trace={trace} totals={totals} width={layout.width} />
      <FilterBar filter={tree.state.filter} draft={input.draft} shown={tree.rows.length} total={model.nodes.length} width={layout.width} />
      <StepTree
        rows={tree.rows}
        selected={tree.selected}
        top={tree.top}
        height={layout.treeRows}
        focused={input.focus === 'tree'}
        labelWidth={layout.labelWidth}
        barWidth={layout.barWidth}
        runStart={model.runStart}
        runDurationMs={model.runDurationMs}
      />
      <DetailPane lines={lines} top={input.detailTop} height={layout.detailRows} width={layout.width} focused={input.focus === 'detail'} />
      <HelpLine focus={input.focus} editing={input.draft !== undefined} width={layout.width} />
    </Box>
  );
}
