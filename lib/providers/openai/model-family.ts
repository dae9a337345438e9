/** Reasoning families (o1/o3/o4…, gpt-5…): `max_completion_tokens`, and no `temperature`. */
export function isReasoningModel(model: string): boolean {
  const id = model.toLowerCase().replace(/^openai\//, '');
  return /^o\d/.test(id) || /^gpt-5/.test(id);
}
