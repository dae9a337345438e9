/**
 * agentlib/evals: eval suites for agents. Load a suite (promptfoo's vocabulary or the spec's
 * `expect_*` fields), run it against an agent with deterministic, agent-native (trace) and
 * LLM-judge assertions, and report as JSON, Markdown, HTML and JUnit.
 */
export type { Assertion, AssertionResult, CheckContext, CheckOutcome, EvalCase, EvaluateOptions, Grader, ScriptedApproval, SuiteDefinition, Verdict } from './types.js';
export type { AttemptResult, CaseResult } from './case-result.js';
export { ASSERTION_TYPES, CHECKS } from './checks/registry.js';
export type { CheckDefinition } from './checks/check-definition.js';
export { readJudgeScore, type JudgeReading } from './checks/judge-score.js';
export { DEFAULT_JUDGE_THRESHOLD } from './checks/judge-checks.js';
export { detectPii, luhnValid, type PiiFinding, type PiiKind } from './checks/pii-detector.js';
export { evaluateAssertion } from './evaluate-assertion.js';
export { DatasetLoader, type DatasetLoaderOptions } from './dataset-loader.js';
export { DEFAULT_EVALUATE_OPTIONS, loadSuite, parseSuite, type ParseSuiteOptions } from './load-suite.js';
export { EvalSuite, type AgentFactory, type EvalProgress, type EvalSuiteOptions } from './eval-suite.js';
export { describeWait, waitObserver, type EvalWait } from './attempt-wait.js';
export type { CostEstimate, EstimateOptions } from './estimate-cost.js';
export { EVAL_REPORT_VERSION, EvalReport, type EvalReportJSON, type EvalSummary } from './eval-report.js';
export { compareReports, type RegressionResult, type VerdictChange } from './compare.js';
export { mergeReports } from './merge-reports.js';
export { selectCases, shardOf, type CaseFilter } from './select-cases.js';
export { historyEntry, type EvalHistoryEntry, type HistoryStore } from './history/history-store.js';
export { MemoryHistoryStore } from './history/memory-history-store.js';
export { SqliteHistoryStore } from './history/sqlite-history-store.js';
export { openHistoryStore } from './history/open-history-store.js';
export { BaselineStore, BASELINE_RECORD, type BaselineInfo, type SaveBaselineOptions } from './baseline/baseline-store.js';
export { openBaselineStore } from './baseline/open-baseline-store.js';
export { SnapshotStore, SNAPSHOT_RECORD, snapshotKey, snapshotPrefix, type Snapshot } from './snapshot/snapshot-store.js';
export { openSnapshotStore } from './snapshot/open-snapshot-store.js';
export { SnapshotSession, type SnapshotCounts, type SnapshotSessionOptions } from './snapshot/snapshot-session.js';
export type { SnapshotChecker, SnapshotSubject } from './types.js';
export type { DocumentBackend } from './stores/document-backend.js';
export { EVAL_STORE_SCHEMES } from './stores/open-document-backend.js';
export { PairwiseEval, type PairwiseCaseResult, type PairwiseEvalOptions, type PairwiseItem, type PairwiseReport, type PairwiseSide, type PairwiseWinner } from './pairwise/pairwise-eval.js';
export { readPairwiseVerdict, type PositionReading } from './pairwise/pairwise-verdict.js';
