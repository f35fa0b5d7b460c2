/** `lintel import`: the resource families and how progress is shown. */
import cliProgress from 'cli-progress';
import { calendarResources } from './calendar.ts';
import type { LegacyClient } from './client.ts';
import { historyResources } from './history.ts';
import { legacyPostResources } from './posts.ts';
import { redirectionResources } from './redirection.ts';
import { userResources } from './users.ts';
import type { ImportResource, ProgressEvent } from './resource.ts';

/** The families `--only` accepts, in import order. */
export const FAMILIES = {
  // First: records of the other families name their authors.
  users: userResources,
  // The legacy posts after the calendar records: the revisions of past events are asked for by the events imported.
  calendar: (client: LegacyClient) => [...calendarResources(client), ...legacyPostResources(client)],
  redirection: redirectionResources,
  history: historyResources,
} satisfies Record<string, (client: LegacyClient) => ImportResource[]>;

export type Family = keyof typeof FAMILIES;

export function importResources(client: LegacyClient, only: readonly Family[] = Object.keys(FAMILIES) as Family[]): ImportResource[] {
  return (Object.keys(FAMILIES) as Family[]).filter((f) => only.includes(f)).flatMap((f) => FAMILIES[f](client));
}

/**
 * One progress bar per resource on a terminal, in pages of the source (a resource may write fewer
 * records than the source lists: the unlisted events are a few among all events).
 */
export function barProgress(stream: NodeJS.WriteStream): { onProgress: (e: ProgressEvent) => void; stop(): void } {
  const bars = new cliProgress.MultiBar(
    { stream, format: '{resource} [{bar}] page {value}/{total}, {written} records written, {removed} removed', hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  const byName = new Map<string, cliProgress.SingleBar>();
  return {
    onProgress(e) {
      if (e.type === 'start') byName.set(e.resource, bars.create(Math.max(e.totalPages, 1), e.fromPage - 1, { resource: e.resource.padEnd(24), written: 0, removed: 0 }));
      else if (e.type === 'batch') byName.get(e.resource)?.update(e.page, { written: e.written });
      else if (e.type === 'done') byName.get(e.resource)?.update(byName.get(e.resource)!.getTotal(), { written: e.written, removed: e.removed });
    },
    stop: () => bars.stop(),
  };
}

/** JSON lines when the output is not a terminal (a log, a pipe). */
export function jsonProgress(stream: NodeJS.WritableStream): { onProgress: (e: ProgressEvent) => void; stop(): void } {
  return { onProgress: (e) => void stream.write(`${JSON.stringify(e)}\n`), stop: () => {} };
}
