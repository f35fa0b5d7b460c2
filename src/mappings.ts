/** The contract's routing configuration from `mappings/`: namespace modes and aliases, and locales. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const namespaceMapping = z.object({
  mode: z.enum(['translate', 'forward']),
  aliases: z.array(z.string().regex(/^[a-z0-9-]+(\/[a-z0-9.-]+)*$/)).default([]),
  /** false: batch/v1 refuses this namespace's routes, as the legacy site did. */
  batch: z.boolean().default(true),
});
export type NamespaceMapping = z.infer<typeof namespaceMapping>;

const namespacesFile = z.object({ namespaces: z.record(z.string(), namespaceMapping) });
const localesFile = z
  .object({ default: z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/), locales: z.array(z.string().regex(/^[a-z]{2,3}([_-][A-Za-z]{2,4})?$/)).min(1) })
  .refine((l) => l.locales.includes(l.default), 'the default locale must be one of the locales');

export interface Mappings {
  namespaces: Record<string, NamespaceMapping>;
  defaultLocale: string;
  locales: string[];
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
  return { namespaces: ns.namespaces, defaultLocale: loc.default, locales: loc.locales };
}
