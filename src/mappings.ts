/** The contract's routing configuration from `mappings/`: namespace modes and aliases, and locales. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const namespaceName = z.string().regex(/^[a-z0-9-]+(\/[a-z0-9.-]+)*$/, 'expected a namespace name such as simple-history/v1');

const namespaceMapping = z
  .object({
    /** translate: Lintel answers; forward: the legacy origin answers; shadow: one answers, the other is compared. */
    mode: z.enum(['translate', 'forward', 'shadow']),
    aliases: z.array(namespaceName).default([]),
    /** false: batch/v1 refuses this namespace's routes, as the legacy site did. */
    batch: z.boolean().default(true),
    /** The name the legacy site serves the namespace under (read in forward and shadow modes); default: the contract's name. */
    upstream: namespaceName.optional(),
    /** shadow: which side answers the client; the other runs in the background. */
    primary: z.enum(['legacy', 'lintel']).optional(),
    /** shadow: the share of reads also run on the other side, 0 to 1. */
    sample: z.number().min(0).max(1).optional(),
  })
  .superRefine((m, ctx) => {
    for (const key of ['primary', 'sample'] as const) {
      if (m[key] !== undefined && m.mode !== 'shadow') ctx.addIssue({ code: 'custom', path: [key], message: `${key} is only read in "shadow" mode` });
    }
  })
  .transform((m) => (m.mode === 'shadow' ? { ...m, primary: m.primary ?? 'legacy', sample: m.sample ?? 1 } : m));
export type NamespaceMapping = z.infer<typeof namespaceMapping>;

const siteMapping = z
  .object({
    /** Requests outside the REST prefix that no page or redirect answers go to LINTEL_LEGACY_ORIGIN (instead of the 404 page). */
    forwardUnmatched: z.boolean().default(false),
  });
export type SiteMapping = z.infer<typeof siteMapping>;

const namespacesFile = z.object({
  $comment: z.string().optional(),
  namespaces: z.record(namespaceName, namespaceMapping),
  site: siteMapping.default({ forwardUnmatched: false }),
});
const localesFile = z
  .object({ default: z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/), locales: z.array(z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/)).min(1) })
  .refine((l) => l.locales.includes(l.default), 'the default locale must be one of the locales');

export interface Mappings {
  namespaces: Record<string, NamespaceMapping>;
  defaultLocale: string;
  locales: string[];
  /** Absent in mappings built by hand (tests): nothing outside the REST prefix is forwarded. */
  site?: SiteMapping;
}

function read<T>(file: string, schema: z.ZodType<T>): T {
  const text = readFileSync(file, 'utf8');
  const r = schema.safeParse(JSON.parse(text));
  if (!r.success) throw new Error(`${file}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

export function loadMappings(dir: string): Mappings {
  const ns = read(path.join(dir, 'namespaces.json'), namespacesFile);
  const loc = read(path.join(dir, 'locales.json'), localesFile);
  return { namespaces: ns.namespaces, defaultLocale: loc.default, locales: loc.locales, site: ns.site };
}
