import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigurationError } from '../../../../lib/core/errors/configuration-error.js';
import { VectorStoreError } from '../../../../lib/core/errors/vector-store-error.js';
import type { SearchResult } from '../../../../lib/rag/document.js';
import { matchesFilter, compileFilter, type MetadataFilter } from '../../../../lib/rag/filter/metadata-filter.js';
import { dotF32 } from '../../../../lib/rag/stores/kernels/dot-kernels-js.js';
import { InMemoryVectorStore } from '../../../../lib/rag/stores/memory-vector-store.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const KERNELS = ['wasm', 'js'] as const;

interface Row {
  id: string;
  vector: number[];
  metadata: Record<string, number | string>;
}

function randomRows(count: number, dim: number, seed: number): Row[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `d${String(i).padStart(5, '0')}`,
    vector: Array.from({ length: dim }, () => random() * 2 - 1),
    metadata: { group: i % 7, name: `n${i % 3}` },
  }));
}

async function storeOf(rows: readonly Row[], options: ConstructorParameters<typeof InMemoryVectorStore>[0] = {}, batch = 97): Promise<InMemoryVectorStore> {
  const store = new InMemoryVectorStore(options);
  for (let i = 0; i < rows.length; i += batch) {
    const part = rows.slice(i, i + batch);
    await store.addDocuments(
      part.map((r) => ({ id: r.id, text: r.id, metadata: r.metadata })),
      part.map((r) => r.vector),
    );
  }
  return store;
}

/** The straightforward reference: cosine in float64 over every row, best first, ties by position. */
function reference(rows: readonly Row[], query: readonly number[], topK: number, filter?: MetadataFilter): { id: string; score: number }[] {
  const node = compileFilter(filter);
  const qn = Math.hypot(...query) || 1;
  return rows
    .map((row, position) => {
      const vn = Math.hypot(...row.vector) || 1;
      let dot = 0;
      row.vector.forEach((v, j) => (dot += v * (query[j] as number)));
      return { id: row.id, score: dot / vn / qn, position };
    })
    .filter((_, i) => matchesFilter((rows[i] as Row).metadata, node))
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, Math.max(0, topK))
    .map(({ id, score }) => ({ id, score }));
}

/**
 * The result is the reference's top k: every position's score within 1e-5 of the reference's score
 * at that position (float32 against float64), every returned row scored within 1e-5 of its reference
 * score, no row twice, and the same ids in the same order where the reference's scores are more
 * than 1e-5 apart (`assertSeparated` makes sure they are for the ranks a test names).
 */
function assertExact(got: readonly SearchResult[], ranking: readonly { id: string; score: number }[], topK: number, what: string): void {
  const all = new Map(ranking.map((e) => [e.id, e.score]));
  assert.equal(got.length, Math.min(topK, ranking.length), `${what}: length`);
  assert.equal(new Set(got.map((r) => r.document.id)).size, got.length, `${what}: duplicates`);
  got.forEach((r, i) => {
    const want = ranking[i] as { id: string; score: number };
    const own = all.get(r.document.id as string);
    assert.ok(own !== undefined && Math.abs(own - want.score) <= 1e-5, `${what}: position ${i} holds ${r.document.id} (reference score ${own}), the reference has ${want.id} (${want.score})`);
    assert.ok(Math.abs(r.score - own) <= 1e-5, `${what}: score ${i} ${r.score} vs ${own}`);
    const separated = (i === 0 || (ranking[i - 1] as { score: number }).score - want.score > 1e-5) && (i + 1 >= ranking.length || want.score - (ranking[i + 1] as { score: number }).score > 1e-5);
    if (separated) assert.equal(r.document.id, want.id, `${what}: position ${i}`);
  });
}

/** The reference's ranks are at least 1e-5 apart around the cut, so float32 and float64 must agree on them. */
function assertSeparated(rows: readonly Row[], query: readonly number[], topK: number, filter?: MetadataFilter): void {
  const all = reference(rows, query, topK + 1, filter);
  for (let i = 1; i < all.length; i++) assert.ok((all[i - 1] as { score: number }).score - (all[i] as { score: number }).score > 1e-5, 'test data has a near tie; pick another seed');
}

describe('InMemoryVectorStore: exact search', () => {
  for (const kernel of KERNELS) {
    for (const [count, dim] of [
      [1, 3],
      [5, 1],
      [70, 33],
      [300, 50],
      [2_000, 96],
    ] as const) {
      test(`top-k equals the float64 reference (${kernel} kernels, ${count} × ${dim})`, async () => {
        const rows = randomRows(count, dim, count * 31 + dim);
        const store = await storeOf(rows, { kernel });
        assert.equal(store.kernel, kernel);
        const random = seeded(dim);
        for (let q = 0; q < 8; q++) {
          const query = Array.from({ length: dim }, () => random() * 2 - 1);
          const ranking = reference(rows, query, count);
          if (dim > 1) assertSeparated(rows, query, Math.min(count, 12));
          for (const topK of [1, 10, count + 5]) {
            const got = await store.search(query, topK);
            assertExact(got, ranking, topK, `query ${q}, top ${topK}`);
          }
        }
      });
    }
  }

  test('near-duplicates the int8 copies cannot tell apart still rank by their float32 scores', async () => {
    // 400 rows = one base vector plus noise far below an int8 step: the int8 ranking is mostly noise,
    // so a search that trusted it (or bounds that were too tight) would return the wrong rows.
    const dim = 64;
    const random = seeded(5);
    const base = Array.from({ length: dim }, () => random() * 2 - 1);
    const rows: Row[] = Array.from({ length: 400 }, (_, i) => ({ id: `n${String(i).padStart(3, '0')}`, vector: base.map((v) => v + (random() - 0.5) * 2e-3), metadata: { group: i % 2 } }));
    const query = base.map((v) => v + (random() - 0.5) * 0.5);
    for (const kernel of KERNELS) {
      const store = await storeOf(rows, { kernel });
      for (const topK of [1, 5, 25]) {
        const got = await store.search(query, topK);
        // The claim is stronger than "close to float64": it is exactly the full float32 scan.
        assert.deepEqual(
          got.map((r) => [r.document.id, r.score]),
          float32Scan(rows, query, topK),
          `${kernel}, top ${topK}`,
        );
        assertExact(got, reference(rows, query, rows.length), topK, `${kernel}, top ${topK}`);
      }
    }
  });

  test('rows and query the int8 / int16 copies hold exactly: only float32 rounding separates the scores', async () => {
    // Integer rows with a 127 (exact in int8) and an integer query with a 32767 (exact in int16):
    // the integer dot products are exact, and near-equal rows differ by less than the float32
    // kernel's rounding, so its error bound is what keeps the right rows in the race.
    const dim = 256;
    const random = seeded(17);
    const small = (): number => Math.floor(random() * 7) - 3;
    const rows: Row[] = Array.from({ length: 600 }, (_, i) => ({ id: `r${String(i).padStart(3, '0')}`, vector: [127, ...Array.from({ length: dim - 1 }, small)], metadata: {} }));
    for (const kernel of KERNELS) {
      const store = await storeOf(rows, { kernel });
      for (let q = 0; q < 4; q++) {
        const query = [32_767, ...Array.from({ length: dim - 1 }, () => Math.floor(random() * 3) - 1)];
        for (const topK of [3, 20]) {
          assert.deepEqual(
            (await store.search(query, topK)).map((r) => [r.document.id, r.score]),
            float32Scan(rows, query, topK),
            `${kernel} query ${q} top ${topK}`,
          );
        }
      }
    }
  });

  test('a coarse int16 query (4,096 dimensions) over int8-exact rows: the query error is bounded too', async () => {
    // With 4,096 dimensions the int16 query has ~4,000 steps (so no integer sum overflows); the rows
    // are exact in int8, so the query's rounding is the only error of the integer scores.
    const dim = 4_096;
    const random = seeded(23);
    const base = Array.from({ length: dim }, () => Math.floor(random() * 100) - 50);
    base[0] = 127;
    const rows: Row[] = Array.from({ length: 120 }, (_, i) => ({ id: `c${String(i).padStart(3, '0')}`, vector: base.map((v, j) => (j > 0 && random() < 0.01 ? v + (random() < 0.5 ? 1 : -1) : v)), metadata: {} }));
    const query = Array.from({ length: dim }, () => random() * 2 - 1);
    for (const kernel of KERNELS) {
      const store = await storeOf(rows, { kernel });
      for (const topK of [1, 10]) {
        assert.deepEqual(
          (await store.search(query, topK)).map((r) => [r.document.id, r.score]),
          float32Scan(rows, query, topK),
          `${kernel} top ${topK}`,
        );
      }
    }
  });

  test("a row along the int16 query's rounding error: the query error term of the bound keeps it", async () => {
    // The int16 copy of a query with one dominant component has steps of ~3e-5; a row (exact in int8)
    // pointing along the query's rounding error gets an integer score ~1.7e-4 below its float32
    // score, more than the other terms of the bound. Among random rows, that row must still be found
    // when it is the k-th best.
    const dim = 384;
    const random = seeded(41);
    const query = Float32Array.from({ length: dim }, (_, j) => (j === 0 ? 1 : (random() - 0.5) * 0.05));
    const qn = Math.sqrt(query.reduce((sum, x) => sum + x * x, 0));
    const unit = query.map((x) => x / qn);
    const max = unit.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const step = max / 32_767;
    const error = [...unit].map((x) => x - step * Math.round(x / step));
    const errorMax = error.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const along: Row = { id: 'along', vector: error.map((x) => Math.round((127 * x) / errorMax)), metadata: {} };
    const others: Row[] = Array.from({ length: 3_000 }, (_, i) => ({ id: `o${String(i).padStart(4, '0')}`, vector: [Math.round((random() - 0.5) * 20), ...Array.from({ length: dim - 1 }, () => Math.round((random() - 0.5) * 254))], metadata: {} }));
    const rows = [...others, along];
    const q = [...query];
    const ranking = float32Scan(rows, q, rows.length);
    const rank = ranking.findIndex(([id]) => id === 'along') + 1;
    assert.ok(rank > 1 && rank < rows.length);
    for (const kernel of KERNELS) {
      const store = await storeOf(rows, { kernel }, 1_000);
      assert.deepEqual(
        (await store.search(q, rank)).map((r) => [r.document.id, r.score]),
        ranking.slice(0, rank),
        kernel,
      );
      // The same after a delete moves the row into the slot of a zero vector (whose bound terms are 0).
      const moved = await storeOf([{ id: 'zero', vector: new Array<number>(dim).fill(0), metadata: {} }, ...rows], { kernel }, 1_000);
      await moved.delete(['zero']);
      assert.deepEqual(
        (await moved.search(q, rank)).map((r) => [r.document.id, r.score]),
        ranking.slice(0, rank),
        `${kernel} after the delete`,
      );
    }
  });

  test('a delete moves the last row with its error bound', async () => {
    // Rows exact in int8 (tiny bounds) first, near-duplicates (wide bounds) after; deleting the
    // first ones moves near-duplicates into their slots, which must keep their own bounds.
    const dim = 64;
    const random = seeded(31);
    const exact: Row[] = Array.from({ length: 200 }, (_, i) => ({ id: `x${String(i).padStart(3, '0')}`, vector: [127, ...Array.from({ length: dim - 1 }, () => Math.floor(random() * 200) - 100)], metadata: {} }));
    const base = Array.from({ length: dim }, () => random() * 2 - 1);
    const near: Row[] = Array.from({ length: 400 }, (_, i) => ({ id: `n${String(i).padStart(3, '0')}`, vector: base.map((v) => v + (random() - 0.5) * 2e-3), metadata: {} }));
    const query = base.map((v) => v + (random() - 0.5) * 0.5);
    for (const kernel of KERNELS) {
      const store = await storeOf([...exact, ...near], { kernel });
      await store.delete(exact.map((r) => r.id));
      for (const topK of [1, 5, 25]) {
        const got = (await store.search(query, topK)).map((r) => [r.document.id, r.score] as [string, number]);
        const want = float32Scan(near, query, topK);
        // Slots changed, so equal scores may order differently: compare the scores, then the ids as sets.
        assert.deepEqual(got.map(([, score]) => score), want.map(([, score]) => score), `${kernel} top ${topK}`);
        assert.deepEqual(got.map(([id]) => id).sort(), want.map(([id]) => id).sort(), `${kernel} top ${topK}`);
      }
    }
  });

  test('wasm and JavaScript kernels return identical results (ids, order, scores), with filters and after deletes', async () => {
    const rows = randomRows(1_500, 72, 11);
    const stores = await Promise.all(KERNELS.map((kernel) => storeOf(rows, { kernel })));
    const random = seeded(77);
    const filters: (MetadataFilter | undefined)[] = [undefined, { group: 3 }, { group: { $in: [1, 2] }, name: { $ne: 'n0' } }, { $or: [{ group: { $gte: 5 } }, { name: 'n1' }] }];
    const compare = async (label: string): Promise<void> => {
      for (let q = 0; q < 6; q++) {
        const query = Array.from({ length: 72 }, () => random() * 2 - 1);
        for (const filter of filters) {
          const [a, b] = await Promise.all(stores.map((s) => s.search(query, 10, filter)));
          assert.deepEqual(
            a?.map((r) => [r.document.id, r.score]),
            b?.map((r) => [r.document.id, r.score]),
            `${label} ${JSON.stringify(filter)}`,
          );
        }
      }
    };
    await compare('before deletes');
    const gone = rows.filter((_, i) => i % 3 === 0).map((r) => r.id);
    for (const store of stores) await store.delete(gone);
    await compare('after deletes');
  });

  test('filters: the top k of the rows that pass, and all of them when fewer than k pass', async () => {
    const rows = randomRows(900, 40, 21);
    const random = seeded(4);
    for (const kernel of KERNELS) {
      const store = await storeOf(rows, { kernel });
      for (const filter of [{ group: 2 }, { name: { $in: ['n1', 'n2'] } }, { $and: [{ group: { $lt: 3 } }, { name: { $nin: ['n0'] } }] }] as MetadataFilter[]) {
        const query = Array.from({ length: 40 }, () => random() * 2 - 1);
        assertSeparated(rows, query, 10, filter);
        assertExact(await store.search(query, 10, filter), reference(rows, query, rows.length, filter), 10, `${kernel} ${JSON.stringify(filter)}`);
      }
      // 900 rows, group 6 and name n0: every 21st row (43 of them); ask for 100.
      const query = Array.from({ length: 40 }, () => random() * 2 - 1);
      const few = await store.search(query, 100, { group: 6, name: 'n0' });
      assert.equal(few.length, 43);
      assertExact(few, reference(rows, query, 100, { group: 6, name: 'n0' }), 100, `${kernel} few`);
      assert.ok(few.every((r) => r.document.metadata?.group === 6 && r.document.metadata.name === 'n0'));
      assert.deepEqual(await store.search(query, 5, { group: 99 }), []);
    }
  });

  test('deletes, then search: the remaining rows only, exactly', async () => {
    const rows = randomRows(600, 48, 8);
    const random = seeded(12);
    for (const kernel of KERNELS) {
      const store = await storeOf(rows, { kernel });
      const gone = new Set(rows.filter(() => random() < 0.5).map((r) => r.id));
      await store.delete([...gone, 'never-added']);
      const kept = rows.filter((r) => !gone.has(r.id));
      assert.equal(await store.count(), kept.length);
      for (let q = 0; q < 5; q++) {
        const query = Array.from({ length: 48 }, () => random() * 2 - 1);
        const got = await store.search(query, 15);
        assert.ok(got.every((r) => !gone.has(r.document.id as string)));
        assertExact(got, reference(kept, query, kept.length), 15, `${kernel} query ${q}`);
      }
      // Re-adding an id replaces its vector (upsert), and the row is found by it.
      const target = kept[0] as Row;
      const fresh = Array.from({ length: 48 }, () => random() * 2 - 1);
      await store.addDocuments([{ id: target.id, text: 'new', metadata: {} }], [fresh]);
      const [hit] = await store.search(fresh, 1);
      assert.equal(hit?.document.id, target.id);
      assert.ok(Math.abs((hit?.score ?? 0) - 1) < 1e-6);
    }
  });

  test('equal scores rank by insertion order (deterministically), also across a delete', async () => {
    for (const kernel of KERNELS) {
      const store = new InMemoryVectorStore({ kernel });
      const same = [1, 2, 3, 4];
      await store.addDocuments(
        ['e', 'b', 'd', 'a', 'c'].map((id) => ({ id, text: id, metadata: {} })),
        [same, same, [4, 3, 2, 1], same.map((v) => v * 2), same],
      );
      const ids = async (k: number): Promise<string[]> => (await store.search([1, 2, 3, 4], k)).map((r) => r.document.id as string);
      assert.deepEqual(await ids(10), ['e', 'b', 'a', 'c', 'd']);
      assert.deepEqual(await ids(2), ['e', 'b']);
      const scores = (await store.search([1, 2, 3, 4], 4)).map((r) => r.score);
      assert.equal(new Set(scores).size, 1, 'identical vectors score identically');
      await store.delete(['e']); // the last row (c) moves into e's slot
      assert.deepEqual(await ids(10), ['c', 'b', 'a', 'd']);
    }
  });

  test('topK edge cases, zero vectors, one dimension', async () => {
    for (const kernel of KERNELS) {
      const store = new InMemoryVectorStore({ kernel });
      assert.deepEqual(await store.search([1, 0], 3), []);
      await store.addDocuments([{ id: 'z', text: 'zero', metadata: {} }, { id: 'x', text: 'x', metadata: {} }, { id: 'y', text: 'y', metadata: {} }], [[0, 0], [1, 0], [0, 1]]);
      assert.deepEqual((await store.search([1, 0], 2.7)).map((r) => r.document.id), ['x', 'z']);
      assert.deepEqual(await store.search([1, 0], 0), []);
      assert.deepEqual(await store.search([1, 0], -1), []);
      assert.deepEqual(await store.search([1, 0], Number.NaN), []);
      assert.equal((await store.search([1, 0], Number.POSITIVE_INFINITY)).length, 3);
      const zero = await store.search([0, 0], 3);
      assert.deepEqual(zero.map((r) => r.score), [0, 0, 0]);
      assert.deepEqual(zero.map((r) => r.document.id), ['z', 'x', 'y']);
      const line = new InMemoryVectorStore({ kernel });
      await line.addDocuments([{ id: 'p', text: '', metadata: {} }, { id: 'n', text: '', metadata: {} }], [[2], [-3]]);
      assert.deepEqual((await line.search([-0.5], 2)).map((r) => [r.document.id, r.score]), [['n', 1], ['p', -1]]);
    }
  });

  test('options are checked: quantization, kernel, dimensions', () => {
    assert.throws(() => new InMemoryVectorStore({ kernel: 'gpu' as 'js' }), ConfigurationError);
    assert.throws(() => new InMemoryVectorStore({ quantization: 'int4' as 'int8' }), ConfigurationError);
    assert.throws(() => new InMemoryVectorStore({ dimensions: 0 }), VectorStoreError);
    assert.throws(() => new InMemoryVectorStore({ dimensions: 2 ** 24 + 1 }), VectorStoreError);
    assert.equal(new InMemoryVectorStore().kernel, undefined);
  });

  test("kernel 'auto' runs WebAssembly here", async () => {
    const store = new InMemoryVectorStore();
    await store.addDocuments([{ id: 'a', text: '', metadata: {} }], [[1, 2, 3]]);
    assert.equal(store.kernel, 'wasm');
  });
});

describe('InMemoryVectorStore: int8 quantisation (approximate)', () => {
  test('recall@10 ≥ 0.9 against the reference, scores within 0.02, same results on both kernels', async () => {
    const rows = randomRows(3_000, 128, 3);
    const [wasm, js] = await Promise.all(KERNELS.map((kernel) => storeOf(rows, { kernel, quantization: 'int8' }, 500)));
    const random = seeded(9);
    let found = 0;
    for (let q = 0; q < 10; q++) {
      const query = Array.from({ length: 128 }, () => random() * 2 - 1);
      const expected = reference(rows, query, 10);
      const got = (await wasm?.search(query, 10)) ?? [];
      assert.deepEqual(
        got.map((r) => [r.document.id, r.score]),
        ((await js?.search(query, 10)) ?? []).map((r) => [r.document.id, r.score]),
      );
      found += got.filter((r) => expected.some((e) => e.id === r.document.id)).length;
      const exact = new Map(reference(rows, query, rows.length).map((r) => [r.id, r.score]));
      for (const r of got) assert.ok(Math.abs(r.score - (exact.get(r.document.id as string) ?? 9)) < 0.02);
    }
    assert.ok(found / 100 >= 0.9, `recall ${found / 100}`);
  });
});

/** Every row scored with the float32 kernel (unit-normalised float32 rows and query, padded to 32). */
function float32Scan(rows: readonly Row[], query: readonly number[], topK: number): [string, number][] {
  const dim = query.length;
  const width = Math.ceil(dim / 32) * 32;
  const unit = (v: readonly number[]): Float32Array => {
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
    const out = new Float32Array(width);
    v.forEach((x, j) => (out[j] = x / n));
    return out;
  };
  const q = unit(query);
  return rows
    .map((row, i) => ({ id: row.id, score: dotF32(q, unit(row.vector), 0, width), i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, topK)
    .map((r) => [r.id, r.score]);
}

