import { formatDuration } from '../core/format-units.js';
import { runStart, type TraceData } from './trace-data.js';
import type { TraceStep } from './trace-step.js';

/** One row of a trace timeline. */
export interface TimelineEntry {
  /** Milliseconds from the run start to the step start. */
  offsetMs: number;
  /** Nesting depth through `parentId` (0 for top-level steps). */
  depth: number;
  step: TraceStep;
}

/**
 * The steps sorted by start time (ties keep recording order), each with its offset from the run
 * start and its nesting depth. Parallel tool calls show overlapping `offsetMs … offsetMs + durationMs`.
 */
export function buildTimeline(trace: TraceData): TimelineEntry[] {
  const start = runStart(trace);
  const byId = new Map<string, TraceStep>();
  for (const step of trace.steps) byId.set(step.id, step);
  return [...trace.steps]
    .sort((a, b) => a.startedAt - b.startedAt)
    .map((step) => ({ offsetMs: step.startedAt - start, depth: depthOf(step, byId), step }));
}

function depthOf(step: TraceStep, byId: ReadonlyMap<string, TraceStep>): number {
  let depth = 0;
  let parent = step.parentId === undefined ? undefined : byId.get(step.parentId);
  while (parent !== undefined && depth < byId.size) {
    depth++;
    parent = parent.parentId === undefined ? undefined : byId.get(parent.parentId);
  }
  return depth;
}

const SUMMARY_CHARS = 60;

/**
 * A plain-text table of a timeline, one step per line:
 * `offset  duration  type (indented by depth)  name  status  summary`.
 */
export function formatTimeline(entries: readonly TimelineEntry[]): string {
  const rows = entries.map(({ offsetMs, depth, step }) => [
    `+${formatDuration(offsetMs)}`,
    formatDuration(step.durationMs),
    `${'  '.repeat(depth)}${step.type}`,
    step.name ?? '',
    step.status,
    oneLine(step.error ? `${step.error.name}: ${step.error.message}` : step.output || step.input || ''),
  ]);
  const header = ['offset', 'duration', 'step', 'name', 'status', 'summary'];
  const all = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((row) => (row[col] ?? '').length)));
  return all
    .map((row) => row.map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col] ?? 0))).join('  ').trimEnd())
    .join('\n');
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat;
}
