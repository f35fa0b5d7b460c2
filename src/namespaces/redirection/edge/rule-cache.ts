/**
 * The site module's rules and the settings they obey, loaded together and kept for a short TTL so
 * replicas converge on another process's changes without a reload per request.
 */
import { SITE_MODULE } from '../records.ts';
import type { Services } from '../../../services.ts';
import { type EdgeSettings, edgeSettings } from './settings.ts';
import { RuleIndex, siteRule } from './rules.ts';

export interface LoadedRules {
  index: RuleIndex;
  settings: EdgeSettings;
  at: number;
}

export class RuleCache {
  private loaded: LoadedRules | null = null;
  private loading: Promise<LoadedRules> | null = null;

  private readonly redirection: Services['store']['redirection'];
  private readonly ttlMs: number;
  constructor(
    redirection: Services['store']['redirection'],
    ttlMs: number,
  ) {
    this.redirection = redirection;
    this.ttlMs = ttlMs;
  }

  async get(): Promise<LoadedRules> {
    if (this.loaded && Date.now() - this.loaded.at < this.ttlMs) return this.loaded;
    // One reload at a time; concurrent requests share it.
    this.loading ??= (async () => {
      const settings = edgeSettings(await this.redirection.settings.get());
      const index = new RuleIndex((await this.redirection.redirects.ofModule(SITE_MODULE)).map((r) => siteRule(r, settings.flags)));
      this.loaded = { index, settings, at: Date.now() };
      return this.loaded;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  /** Drops the loaded rules so the next request reloads them. */
  invalidate(): void {
    this.loaded = null;
  }
}
