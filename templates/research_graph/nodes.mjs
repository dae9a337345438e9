// The review node of research_graph (graph.yaml). It runs after a person answered the
// `interrupt_before` question; the answer is in state.data.__human_input__ and the writer's
// draft in state.data.__last_output__.

/** Publishes the draft when the answer is yes; otherwise holds it back with the answer as feedback. */
export function review(state) {
  const answer = String(state.data.__human_input__ ?? '').trim();
  const draft = String(state.data.__last_output__ ?? '');
  if (/^y(es)?$/i.test(answer)) return { output: draft, data: { published: true } };
  return { output: `Held back. Reviewer feedback: ${answer}`, data: { published: false, feedback: answer } };
}
