/**
 * Options are kept until a write to them is announced; the writer reads its own write as soon as it
 * is committed, and a value read outside a transaction while it writes is not kept past its commit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStore } from '../../test/support/store.ts';
import type { OpenStore } from './store.ts';

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.close());

const read = () => store.options.get<string>('test-option');
/** Until the value is kept (read again without a statement): announcements of earlier writes may still arrive. */
const keptAs = async (value: string) => {
  await expect
    .poll(async () => {
      const statements = store.statements();
      const v = await read();
      return v === value && store.statements() === statements;
    })
    .toBe(true);
};

describe('options', () => {
  it('a value written outside a transaction is read at once', async () => {
    await store.options.set('test-option', 'a');
    await keptAs('a');
    await store.options.set('test-option', 'b');
    expect(await read()).toBe('b');
  });

  it('a value written in a transaction: outside it the committed value until the commit, the new one at once after', async () => {
    await store.options.set('test-option', 'c');
    await keptAs('c');
    await store.transaction(async (tx) => {
      await tx.options.set('test-option', 'd');
      expect(await tx.options.get('test-option')).toBe('d');
      expect(await read()).toBe('c');
    });
    expect(await read()).toBe('d');
  });
});
