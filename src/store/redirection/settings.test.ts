/**
 * A fresh install's redirection settings: what migration 020 stores and what a wipe restores are
 * the same values (the token aside), `installedRedirectionSettings` over the plugin's defaults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStore } from '../../../test/support/store.ts';
import type { OpenStore } from '../store.ts';
import { defaultRedirectionSettings, installedRedirectionSettings } from './settings.ts';

let store: OpenStore;
beforeAll(async () => {
  store = await testStore();
});
afterAll(() => store.close());

const stored = async () => (await store.sql.query<{ value: Record<string, unknown> }>(`select value from options where name = 'redirection'`))[0].value;

describe('install-time redirection settings', () => {
  it('the migration stores the install values and a random token', async () => {
    const { token, ...rest } = await stored();
    expect(rest).toEqual(installedRedirectionSettings);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('read over the defaults: case-insensitive, trailing-slash-tolerant sources (false in the plugin defaults)', async () => {
    expect([defaultRedirectionSettings.flag_case, defaultRedirectionSettings.flag_trailing]).toEqual([false, false]);
    expect(await store.redirection.settings.get()).toMatchObject({ flag_query: 'exact', flag_case: true, flag_trailing: true, flag_regex: false, last_group_id: 1, database: '4.2' });
  });

  it('a wipe restores the same values with a new token, and the two install groups', async () => {
    const before = await stored();
    await store.redirection.settings.save({ flag_case: false, expire_404: 30 });
    await store.redirection.groups.create('Extra', 1);
    await store.redirection.wipe();
    const { token, ...rest } = await stored();
    expect(rest).toEqual(installedRedirectionSettings);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(token).not.toBe(before.token);
    expect((await store.redirection.groups.all()).map((g) => [g.id, g.name])).toEqual([[1, 'Redirections'], [2, 'Modified Posts']]);
  });
});
