/** A mappings folder of a test's own (`LINTEL_MAPPINGS_DIR`): its namespaces.json, the other shipped files as they are. */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SHIPPED = fileURLToPath(new URL('../../mappings', import.meta.url));

export function mappingsDir(namespaces: Record<string, object>, site?: object): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lintel-mappings-'));
  writeFileSync(path.join(dir, 'namespaces.json'), JSON.stringify({ namespaces, ...(site ? { site } : {}) }));
  for (const f of readdirSync(SHIPPED)) if (f !== 'namespaces.json') copyFileSync(path.join(SHIPPED, f), path.join(dir, f));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Lintel's own namespaces translated, history/v1 forwarded to the legacy name. */
export const FORWARD_HISTORY = {
  'oembed/1.0': { mode: 'translate' },
  'redirection/v1': { mode: 'translate' },
  'calendar/events/v1': { mode: 'translate', aliases: ['tribe/events/v1'] },
  'history/v1': { mode: 'forward', upstream: 'simple-history/v1', aliases: ['simple-history/v1'] },
};
