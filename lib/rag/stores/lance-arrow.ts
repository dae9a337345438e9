import { createRequire } from 'node:module';

/** The parts of apache-arrow the LanceDB store builds its batches with. */
export interface ArrowModule {
  Schema: new (fields: unknown[], metadata?: Map<string, string>) => ArrowSchema;
  Field: new (name: string, type: unknown, nullable?: boolean, metadata?: Map<string, string>) => ArrowField;
  Utf8: new () => unknown;
  Float32: new () => unknown;
  FixedSizeList: new (size: number, child: ArrowField) => unknown;
  Struct: new (fields: ArrowField[]) => unknown;
  Table: new (schema: ArrowSchema, batches: unknown[]) => unknown;
  RecordBatch: new (schema: ArrowSchema, data: unknown) => unknown;
  makeData(props: Record<string, unknown>): unknown;
  vectorFromArray(values: string[], type: unknown): { data: unknown[] };
}

/** An Arrow schema as the store reads it back from a table. */
export interface ArrowSchema {
  fields: ArrowField[];
  metadata: Map<string, string>;
}

/** An Arrow field. */
export interface ArrowField {
  name: string;
  type: { listSize?: number };
}

/**
 * The apache-arrow instance @lancedb/lancedb itself uses (its CommonJS copy, required from the
 * package's own location). LanceDB checks tables with `instanceof`, so batches must be built with
 * the same classes, not those of an ES-module import of apache-arrow.
 */
export function lanceArrow(): ArrowModule {
  const here = createRequire(import.meta.url);
  const fromLance = createRequire(here.resolve('@lancedb/lancedb'));
  return fromLance('apache-arrow') as ArrowModule;
}
