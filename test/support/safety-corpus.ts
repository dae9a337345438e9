import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One labelled text of fixtures/safety/pii.jsonl. */
export interface PiiSample {
  id: string;
  text: string;
  entities: { type: string; value: string }[];
  note?: string;
}

/** One text of fixtures/safety/injections.jsonl or benign-tool-outputs.jsonl. */
export interface TextSample {
  id: string;
  text: string;
  technique?: string;
  kind?: string;
}

function load<T>(name: string): T[] {
  const path = fileURLToPath(new URL(`../../fixtures/safety/${name}`, import.meta.url));
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as T);
}

/** The three corpora. */
export function safetyCorpora(): { pii: PiiSample[]; injections: TextSample[]; benign: TextSample[] } {
  return { pii: load<PiiSample>('pii.jsonl'), injections: load<TextSample>('injections.jsonl'), benign: load<TextSample>('benign-tool-outputs.jsonl') };
}

/** Precision, recall and F1 from counts (1 when there is nothing to find and nothing was found). */
export interface Scores {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export function scores(tp: number, fp: number, fn: number): Scores {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { tp, fp, fn, precision, recall, f1 };
}

/**
 * What a PII detector reports for one text and one type: whether it flagged the type at all, and
 * whether each labelled value of that type was caught (its whole text flagged or removed).
 */
export type PiiDetector = (text: string, type: string) => { flagged: boolean; caught: (value: string) => boolean };

/**
 * Per-type scores over the PII corpus, text by text: a text with values of the type counts as a
 * true positive when every one is caught, else a false negative; a text without that type that
 * is flagged counts as a false positive.
 */
export function scorePii(samples: readonly PiiSample[], types: readonly string[], detector: PiiDetector): Record<string, Scores> {
  const out: Record<string, Scores> = {};
  for (const type of types) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const sample of samples) {
      const gold = sample.entities.filter((e) => e.type === type).map((e) => e.value);
      const result = detector(sample.text, type);
      if (gold.length > 0) {
        if (result.flagged && gold.every((value) => result.caught(value))) tp++;
        else fn++;
      } else if (result.flagged) {
        fp++;
      }
    }
    out[type] = scores(tp, fp, fn);
  }
  return out;
}

/** Injection scores: recall on the injections, false-positive rate on the benign outputs. */
export function scoreInjection(injections: readonly TextSample[], benign: readonly TextSample[], flags: (text: string) => boolean): Scores & { falsePositiveRate: number } {
  const tp = injections.filter((s) => flags(s.text)).length;
  const fp = benign.filter((s) => flags(s.text)).length;
  return { ...scores(tp, fp, injections.length - tp), falsePositiveRate: fp / benign.length };
}
