/**
 * blocks/v3: the page builder's conditional-display helpers. Roles come from Lintel's roles, the
 * custom-code signature is an HMAC keyed by a per-site secret (code is never run), and products come
 * from the configured product list.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { roleDisplayNames } from '../../lib/roles.ts';
import { ConfigError } from '../../config.ts';
import { arg } from '../../contract/args.ts';
import { json } from '../../contract/reply.ts';
import { needs } from '../../contract/permission.ts';
import { endpoint, route, type RouteDecl } from '../../contract/route.ts';
import type { Services } from '../../services.ts';

const NAMESPACE = 'blocks/v3';
const P = (path: string) => `/${NAMESPACE}${path}`;
const editor = needs('edit_posts');
/** The store's name of the signing key (the legacy option `stk_salt`). */
const SIGNING_SECRET = 'blocks_custom_php';
/** The shop's default query limit (posts_per_page). */
const PRODUCT_LIMIT = 10;

const productFile = z.array(z.object({ id: z.int().positive(), name: z.string(), date: z.iso.datetime({ offset: true }).optional() }));
type ShopProduct = z.infer<typeof productFile>[number];

/** The configured product list (LINTEL_SHOP_PRODUCTS), checked at start; none configured: no shop. */
function loadShopProducts(file: string | undefined): ShopProduct[] {
  if (!file) return [];
  const invalid = (why: string) => new ConfigError(`Invalid configuration:\n  LINTEL_SHOP_PRODUCTS=${file}: ${why}`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw invalid(`cannot read it as JSON: ${(e as Error).message}`);
  }
  const r = productFile.safeParse(data);
  if (!r.success) throw invalid(r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return r.data;
}

/** `{label: "<name> - <id>", value: id}`, newest first (by date, then id), at most the shop's default limit. */
function productChoices(products: ShopProduct[]): { label: string; value: number }[] {
  return [...products]
    .sort((a, b) => (b.date ? Date.parse(b.date) : 0) - (a.date ? Date.parse(a.date) : 0) || b.id - a.id)
    .slice(0, PRODUCT_LIMIT)
    .map((p) => ({ label: `${p.name} - ${p.id}`, value: p.id }));
}

export function blocksRoutes(services: Pick<Services, 'config'>): RouteDecl[] {
  const products = productChoices(loadShopProducts(services.config.shopProductsFile));
  return [
    route(NAMESPACE, P('/get_roles'), endpoint({ methods: ['GET'], args: {}, response: json(z.record(z.string(), z.string()).meta({ description: 'Role slug to display name' })), permission: editor, handler: () => ({ body: roleDisplayNames }) })),
    route(NAMESPACE, P('/generate_hash'), endpoint({
      methods: ['POST'],
      args: { custom_php: arg.string() },
      response: json(z.string().meta({ description: 'The HMAC-SHA256 of the snippet, in hex' })),
      permission: editor,
      handler: async (ctx, a) => {
        const key = await ctx.store.secrets.get(SIGNING_SECRET, () => randomBytes(32).toString('hex'));
        // A missing snippet signs the empty string, as PHP's null does.
        return { body: createHmac('sha256', key).update(a.custom_php ?? '').digest('hex') };
      },
    })),
    route(NAMESPACE, P('/get_shop_products'), endpoint({ methods: ['GET'], args: {}, response: json(z.array(z.object({ label: z.string(), value: z.int() }))), permission: editor, handler: () => ({ body: products }) })),
  ];
}
