/**
 * Known oEmbed providers (`mappings/oembed-providers.json`): URL patterns with `*` wildcards, each
 * with the provider's endpoint. Patterns are globs, never client-supplied regexes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const file = z.object({
  providers: z.array(z.object({ name: z.string().min(1), patterns: z.array(z.string().regex(/^https?:\/\//)).min(1), endpoint: z.url({ protocol: /^https?$/ }) })),
});

export interface Provider {
  name: string;
  endpoint: string;
  matches(url: string): boolean;
}

function globToRegex(glob: string): RegExp {
  const body = glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`, 'i');
}

export function parseProviders(json: unknown): Provider[] {
  const r = file.safeParse(json);
  if (!r.success) throw new Error(`oembed-providers.json: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data.providers.map((p) => {
    const res = p.patterns.map(globToRegex);
    return { name: p.name, endpoint: p.endpoint, matches: (url) => res.some((re) => re.test(url)) };
  });
}

export function loadProviders(mappingsDir: string): Provider[] {
  return parseProviders(JSON.parse(readFileSync(path.join(mappingsDir, 'oembed-providers.json'), 'utf8')));
}

/** The first provider whose pattern matches, as the legacy provider list is searched. */
export function providerFor(providers: readonly Provider[], url: string): Provider | null {
  return providers.find((p) => p.matches(url)) ?? null;
}
