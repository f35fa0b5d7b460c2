/**
 * Test stores are independent of the order tests run in: a store opened after another one closed
 * (on PGlite, the same instance lent again, test/support/store.ts) holds what the template holds,
 * whatever the first wrote, and a closed store refuses statements instead of reaching the next one's data.
 */
import { describe, expect, it } from 'vitest';
import { testStore } from './store.ts';

const user = (login: string) => ({ login, email: `${login}@example.test`, displayName: login, role: 'administrator' as const, passwordHash: null });

describe('test stores', () => {
  it('start as the template after another store wrote rows, moved a sequence and changed a setting', async () => {
    const first = await testStore();
    const groups = await first.sql.query('select id, name from redirection_groups order by id');
    const firstId = (await first.users.create(user('first'))).id;
    await first.sql.query('insert into redirection_groups (name, module_id) values ($1, 1)', ['extra']);
    await first.sql.query(`set timezone = 'Asia/Tokyo'`);
    await first.close();
    await expect(first.sql.query('select 1')).rejects.toThrow();

    const second = await testStore();
    try {
      expect(await second.users.byLogin('first')).toBeNull();
      expect(await second.sql.query('select id, name from redirection_groups order by id')).toEqual(groups);
      expect((await second.users.create(user('second'))).id).toBe(firstId);
      expect(await second.sql.query('show timezone')).not.toEqual([{ TimeZone: 'Asia/Tokyo' }]);
    } finally {
      await second.close();
    }
  });

  it('start without a table another store created', async () => {
    const first = await testStore();
    await first.sql.query('create table scratch (x int)');
    await first.close();
    const second = await testStore();
    try {
      expect(await second.sql.query(`select to_regclass('scratch') as t`)).toEqual([{ t: null }]);
    } finally {
      await second.close();
    }
  });
});
