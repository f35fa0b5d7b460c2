import { scaled } from './time.ts';

/** Waits until `ok()` holds, or fails after `ms` (scaled to the machine): for what arrives asynchronously (change-feed announcements after a commit). */
export async function eventually(ok: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const limit = scaled(ms);
  const end = Date.now() + limit;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${limit} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
