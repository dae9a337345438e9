import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STEP_TYPES, StepType, isStepType } from '../../../lib/trace/step-type.js';

describe('StepType', () => {
  test('is a string enum of exactly the spec’s 27 values', () => {
    assert.equal(StepType.LLM_CALL, 'llm_call');
    assert.equal(StepType.GRAPH_LOOP_DETECTED, 'graph_loop_detected');
    assert.deepEqual([...STEP_TYPES], [
      'llm_call', 'tool_selection', 'tool_execution', 'cache_hit', 'error', 'structured_retry',
      'session_load', 'session_save', 'memory_summarize', 'entity_extraction', 'kg_extraction',
      'guardrail', 'coherence_check', 'output_screening',
      'budget_exceeded', 'cancelled', 'prompt_compressed',
      'graph_node_start', 'graph_node_end', 'graph_routing', 'graph_checkpoint', 'graph_interrupt', 'graph_resume',
      'graph_parallel_start', 'graph_parallel_end', 'graph_stall', 'graph_loop_detected',
    ]);
    for (const [key, value] of Object.entries(StepType)) assert.equal(key, value.toUpperCase());
    assert.ok(Object.isFrozen(STEP_TYPES));
  });

  test('isStepType accepts only the 27 strings', () => {
    assert.equal(isStepType('tool_execution'), true);
    assert.equal(isStepType('tool-execution'), false);
    assert.equal(isStepType(3), false);
  });
});
