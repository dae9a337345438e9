/**
 * A tiny WebAssembly assembler: turns functions written in the flat (non-folded) WAT instruction
 * syntax into a binary module that imports one memory (`env.memory`) and exports the functions.
 * It knows only the instructions the vector kernels use (dot-kernels-wasm.ts); anything else is an
 * error. No toolchain is needed at build or run time, and the kernel's source stays readable.
 */

/** A value type of a parameter, local or result. */
export type WasmType = 'i32' | 'f32' | 'f64' | 'v128';

/** One exported function: named parameters and locals, an optional result, a flat WAT body. */
export interface WasmFunction {
  name: string;
  params: readonly (readonly [string, WasmType])[];
  locals: readonly (readonly [string, WasmType])[];
  result?: WasmType;
  /** Instructions, one per line; `;;` starts a comment. */
  body: string;
}

const TYPE_CODE: Record<WasmType, number> = { i32: 0x7f, f32: 0x7d, f64: 0x7c, v128: 0x7b };

type Immediate = 'none' | 'local' | 'label' | 'i32' | 'memarg' | 'lane' | 'block' | 'v128-zero';

/** Opcode bytes and immediate kind of each supported instruction (SIMD ones behind the 0xfd prefix). */
const INSTRUCTIONS: Record<string, { code: number[]; imm: Immediate; align?: number }> = {
  block: { code: [0x02], imm: 'block' },
  loop: { code: [0x03], imm: 'block' },
  end: { code: [0x0b], imm: 'none' },
  br: { code: [0x0c], imm: 'label' },
  br_if: { code: [0x0d], imm: 'label' },
  'local.get': { code: [0x20], imm: 'local' },
  'local.set': { code: [0x21], imm: 'local' },
  'local.tee': { code: [0x22], imm: 'local' },
  'i32.store': { code: [0x36], imm: 'memarg', align: 2 },
  'i32.const': { code: [0x41], imm: 'i32' },
  'i32.eqz': { code: [0x45], imm: 'none' },
  'i32.lt_u': { code: [0x49], imm: 'none' },
  'i32.add': { code: [0x6a], imm: 'none' },
  'i32.sub': { code: [0x6b], imm: 'none' },
  'i32.mul': { code: [0x6c], imm: 'none' },
  'f32.add': { code: [0x92], imm: 'none' },
  'v128.load': { code: [0xfd, 0x00], imm: 'memarg', align: 4 },
  'v128.const': { code: [0xfd, 0x0c], imm: 'v128-zero' },
  'i32x4.extract_lane': { code: [0xfd, 0x1b], imm: 'lane' },
  'f32x4.extract_lane': { code: [0xfd, 0x1f], imm: 'lane' },
  'i16x8.extend_low_i8x16_s': { code: [0xfd, 0x87, 0x01], imm: 'none' },
  'i16x8.extend_high_i8x16_s': { code: [0xfd, 0x88, 0x01], imm: 'none' },
  'i32x4.add': { code: [0xfd, 0xae, 0x01], imm: 'none' },
  'i32x4.dot_i16x8_s': { code: [0xfd, 0xba, 0x01], imm: 'none' },
  'f32x4.add': { code: [0xfd, 0xe4, 0x01], imm: 'none' },
  'f32x4.mul': { code: [0xfd, 0xe6, 0x01], imm: 'none' },
};

/** Unsigned LEB128. */
export function uleb128(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 (32-bit). */
export function sleb128(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const utf8 = (text: string): number[] => [...uleb128(text.length), ...new TextEncoder().encode(text)];
const vector = (items: readonly number[][]): number[] => [...uleb128(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb128(body.length), ...body];

function integer(token: string | undefined, line: string, min: number, max: number): number {
  const value = Number(token);
  if (token === undefined || !Number.isInteger(value) || value < min || value > max) throw new Error(`wasm assembler: bad immediate in "${line}"`);
  return value;
}

/** Encodes one function body (locals declaration + instructions). */
function encodeBody(fn: WasmFunction): number[] {
  const index = new Map<string, number>();
  for (const [name] of [...fn.params, ...fn.locals]) {
    if (index.has(name)) throw new Error(`wasm assembler: ${fn.name} declares ${name} twice`);
    index.set(name, index.size);
  }
  const code: number[] = [...vector(fn.locals.map(([, type]) => [...uleb128(1), TYPE_CODE[type]]))];
  for (const raw of fn.body.split('\n')) {
    const line = (raw.split(';;')[0] ?? '').trim();
    if (line === '') continue;
    const [name, ...args] = line.split(/\s+/);
    const spec = INSTRUCTIONS[name as string];
    if (spec === undefined) throw new Error(`wasm assembler: unknown instruction "${line}"`);
    code.push(...spec.code);
    switch (spec.imm) {
      case 'none':
        break;
      case 'block':
        code.push(0x40);
        break;
      case 'label':
        code.push(...uleb128(integer(args[0], line, 0, 255)));
        break;
      case 'lane':
        code.push(integer(args[0], line, 0, 15));
        break;
      case 'i32':
        code.push(...sleb128(integer(args[0], line, -(2 ** 31), 2 ** 31 - 1)));
        break;
      case 'local': {
        const slot = index.get(args[0] ?? '');
        if (slot === undefined) throw new Error(`wasm assembler: unknown local in "${line}"`);
        code.push(...uleb128(slot));
        break;
      }
      case 'memarg': {
        const offset = /^offset=(\d+)$/.exec(args[0] ?? 'offset=0');
        if (offset === null) throw new Error(`wasm assembler: bad memarg in "${line}"`);
        code.push(spec.align ?? 0, ...uleb128(integer(offset[1], line, 0, 2 ** 31)));
        break;
      }
      case 'v128-zero':
        if (args.join(' ') !== 'i32x4 0 0 0 0') throw new Error(`wasm assembler: only "v128.const i32x4 0 0 0 0" is supported, got "${line}"`);
        code.push(...new Array<number>(16).fill(0));
        break;
    }
  }
  code.push(0x0b);
  return [...uleb128(code.length), ...code];
}

/** The binary module: memory imported as `env.memory`, every function exported under its name. */
export function assembleModule(functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((fn) => [0x60, ...vector(fn.params.map(([, type]) => [TYPE_CODE[type]])), ...vector(fn.result ? [[TYPE_CODE[fn.result]]] : [])]);
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(2, vector([[...utf8('env'), ...utf8('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vector(functions.map((_, i) => uleb128(i)))),
    ...section(7, vector(functions.map((fn, i) => [...utf8(fn.name), 0x00, ...uleb128(i)]))),
    ...section(10, vector(functions.map(encodeBody))),
  ];
  return new Uint8Array(bytes);
}
