/** Waits until `ok()` holds, or fails after `ms`: for what arrives asynchronously (change-feed announcements after a commit). */
export async function eventually(ok: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
