/**
 * What changed in the store, for caches: a version per topic (a group of tables, named by the
 * change-feed triggers of migration 070), bumped when a committed write to that topic is
 * announced on `lintel_changes`, by this replica or any other sharing the PostgreSQL server.
 * While the feed is not connected, nothing may be trusted: `live` is false and caches stand
 * aside; on every (re)connection the epoch moves on, since announcements may have been missed.
 */
export const CHANGES_CHANNEL = 'lintel_changes';

export class ChangeFeed {
  private readonly versions = new Map<string, number>();
  private epoch = 0;
  private moves = 0;
  private readonly watchers: { topic: string; fn: () => void }[] = [];
  live = false;

  changed(topic: string): void {
    this.versions.set(topic, (this.versions.get(topic) ?? 0) + 1);
    this.moves++;
    for (const w of this.watchers) if (w.topic === topic) w.fn();
  }

  connected(live: boolean): void {
    if (live) this.anythingChanged();
    this.live = live;
    this.moves++;
    // Announcements may have been missed while the feed was down: whoever watches reads again.
    if (live) for (const w of this.watchers) w.fn();
  }

  /** Calls `fn` after each announced write to `topic`, and on each (re)connection of the feed. */
  watch(topic: string, fn: () => void): () => void {
    const w = { topic, fn };
    this.watchers.push(w);
    return () => this.watchers.splice(this.watchers.indexOf(w), 1);
  }

  /**
   * Everything may have changed: after a write request answered here, whose own announcement
   * arrives a moment later, so that the writer's next read already sees its write.
   */
  anythingChanged(): void {
    this.epoch++;
    this.moves++;
  }

  /**
   * Moves on with every announcement, reconnection and local write: while it has not, whatever
   * held still holds (a cache checks an entry once per move, not on every read).
   */
  get generation(): number {
    return this.moves;
  }

  /** The state of these topics: equal strings mean nothing in them changed in between. */
  version(topics: readonly string[]): string {
    return `${this.epoch}:${topics.map((t) => this.versions.get(t) ?? 0).join('.')}`;
  }

  /**
   * The version to stamp what is computed from now on, taken before it is computed (a write that
   * commits meanwhile then makes it stale at once); null while the feed is down: keep nothing.
   */
  stamp(topics: readonly string[]): string | null {
    return this.live ? this.version(topics) : null;
  }

  /** Whether what was stamped `version` still holds: nothing in these topics changed and the feed is up. */
  holds(version: string, topics: readonly string[]): boolean {
    return this.live && version === this.version(topics);
  }
}
