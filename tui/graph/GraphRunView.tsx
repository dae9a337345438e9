import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { DiagramNode } from '../../lib/graph/render/diagram-nodes.js';
import { cut } from '../chat/chat-format.js';
import { ActivityPane, ACTIVITY_LINES } from './ActivityPane.js';
import { paintDiagram, type BoxPlace } from './diagram-paint.js';
import { GraphDiagram } from './GraphDiagram.js';
import type { GraphViewState } from './graph-view-state.js';
import { NodeStrip } from './NodeStrip.js';
import { QuestionPrompt } from './QuestionPrompt.js';
import { StatusBar } from './StatusBar.js';

/** What GraphRunView draws besides the state. */
export interface GraphRunViewProps {
  state: GraphViewState;
  nodes: readonly DiagramNode[];
  /** The drawing's rows (visualize('ascii', { spacing: 'compact' })) and where each box is. */
  diagram: readonly string[];
  places: ReadonlyMap<string, BoxPlace>;
  color: boolean;
  columns: number;
  rows: number;
  spinner: number;
  /** The final answer, once the run completed. */
  content?: string | undefined;
  onAnswer: (interruptId: string, text: string) => void;
  onLeave: () => void;
}

/**
 * The live view of a graph run: the drawing with nodes coloured by state, the node strip, what the
 * running nodes' agents stream (text and tool cards), the question of an interrupt with a line
 * to answer it, and a status line with steps, tokens and cost. Fits the terminal: the drawing
 * gets the rows the rest leaves (a window around the running node when it is taller).
 */
export function GraphRunView(props: GraphRunViewProps): ReactNode {
  const { state, nodes, color, columns, rows } = props;
  const width = Math.max(20, columns - 1);
  const blocks = state.running.map((key) => ({ name: nodes.find((n) => n.key === key)?.name ?? key, activity: state.activity[key] })).filter((b): b is { name: string; activity: NonNullable<typeof b.activity> } => b.activity !== undefined && (b.activity.text !== '' || b.activity.tools.length > 0));
  const question = state.questions[0];
  const activityRows = blocks.reduce((n, b) => n + 1 + Math.min(ACTIVITY_LINES, b.activity.text.split('\n').length) + b.activity.tools.length * 2, 0);
  const contentLines = props.content === undefined || props.content === '' ? [] : props.content.trimEnd().split('\n').slice(0, 6);
  const reserved = 1 + Math.ceil(nodes.length * 12 / width) + activityRows + (question === undefined ? 0 : 5) + contentLines.length + 1;
  const focusKey = state.running[0] ?? question?.node;
  const focus = focusKey === undefined ? undefined : props.places.get(focusKey)?.top;
  const painted = paintDiagram(props.diagram, nodes, props.places, (key) => state.nodes[key]?.status ?? 'pending');
  return (
    <Box flexDirection="column">
      <GraphDiagram rows={painted} color={color} width={width} maxRows={Math.max(6, rows - reserved)} focusRow={focus} />
      <NodeStrip state={state} nodes={nodes} color={color} spinner={props.spinner} />
      <ActivityPane blocks={blocks} color={color} width={width} />
      {question !== undefined && state.outcome?.status === 'interrupted' ? (
        <QuestionPrompt key={question.interruptId} question={question} color={color} onAnswer={(text) => props.onAnswer(question.interruptId, text)} onLeave={props.onLeave} />
      ) : null}
      {contentLines.map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {cut(line, width)}
        </Text>
      ))}
      <StatusBar state={state} color={color} />
    </Box>
  );
}
