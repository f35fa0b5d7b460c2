/** Demo redirects and groups for the embedded default (`fixtures/demo/redirection.json`), written through the sanitizer. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from '../../store/store.ts';
import { sanitizeRedirect } from './sanitize.ts';

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures/demo/redirection.json');

interface Demo {
  groups: { name: string; moduleId: number }[];
  redirects: Record<string, unknown>[];
}

export async function seedRedirectionDemo(store: Store): Promise<void> {
  const demo = JSON.parse(readFileSync(FILE, 'utf8')) as Demo;
  await store.transaction(async (tx) => {
    const repo = tx.redirection;
    // Only on an untouched install: the two install groups and no redirects.
    if ((await repo.groups.all()).length > 2 || (await repo.redirects.ofModule('all')).length) return;
    for (const g of demo.groups) await repo.groups.create(g.name, g.moduleId);
    const settings = await repo.settings.get();
    for (const body of demo.redirects) {
      const r = await sanitizeRedirect(body, String(body.url), {
        settings,
        siteHost: 'localhost',
        groupExists: async (id) => (await repo.groups.byId(id)) !== null,
      });
      await repo.redirects.insert({ ...r, position: r.position || (await repo.redirects.countInGroup(r.groupId)), hits: 0, lastAccess: null });
    }
  });
}
