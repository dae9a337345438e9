export { percentile } from './percentile.js';
export { traceStats, type AgentStatsRow, type ModelStatsRow, type StatsBucket, type StatsGrouping, type ToolStatsRow, type TraceStatsReport } from './trace-stats.js';
