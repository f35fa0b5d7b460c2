/** A small namespace declared only for tests of the contract layer: its handlers echo their arguments. */
import { z } from 'zod';
import { arg, item } from '../../src/contract/args.ts';
import { json } from '../../src/contract/reply.ts';
import { needs, onRecord, publicAccess } from '../../src/contract/permission.ts';
import { endpoint, route, type RouteDecl } from '../../src/contract/route.ts';
import type { Mappings } from '../../src/mappings.ts';
import { translators } from '../../src/namespaces/index.ts';

export const ECHO = 'echo/v1';
/** The arguments as parsed. */
const echoed = json(z.looseObject({}));

const listArgs = {
  per_page: arg.integer({ description: 'Items per page', default: 10, minimum: 1, maximum: 100 }),
  flag: arg.boolean(),
  ids: arg.array(item.integer()),
  since: arg.string({ format: 'date-time' }),
  kind: arg.enum(['a', 'b', 'c']),
  filter: arg.object(null),
};

export function echoRoutes(): RouteDecl[] {
  return [
    route(
      ECHO,
      `/${ECHO}/items`,
      endpoint({ methods: ['GET'], args: listArgs, response: echoed, permission: publicAccess, handler: (_ctx, args) => ({ body: args }) }),
      endpoint({
        methods: ['POST'],
        args: { title: arg.string({ required: true }), count: arg.integer() },
        response: json(z.looseObject({}), 201),
        permission: needs('edit_posts'),
        allowBatch: true,
        handler: (_ctx, args) => ({ status: 201, body: args, headers: { 'X-Echo': 'created' } }),
      }),
    ),
    route(
      ECHO,
      `/${ECHO}/items/(?P<id>\\d+)`,
      endpoint({
        methods: ['GET', 'DELETE'],
        args: { id: arg.integer({ required: true }) },
        response: json(z.object({ id: z.int(), method: z.string() })),
        permission: publicAccess,
        handler: (ctx, args) => ({ body: { id: args.id, method: ctx.method } }),
      }),
    ),
    // A record the caller may change or not (here: even IDs), as `current_user_can('edit_post', $id)` decides.
    route(
      ECHO,
      `/${ECHO}/owned/(?P<id>\\d+)`,
      endpoint({ methods: ['GET'], args: { id: arg.integer({ required: true }) }, response: echoed, permission: publicAccess, handler: (_ctx, args) => ({ body: args }) }),
      endpoint({
        methods: ['PUT'],
        args: { id: arg.integer({ required: true }) },
        response: echoed,
        permission: onRecord(needs('edit_posts'), async (_ctx, a) => (a as { id: number }).id % 2 === 0),
        handler: (_ctx, args) => ({ body: args }),
      }),
    ),
    // A path parameter the route lists no argument for (as legacy export routes do).
    route(ECHO, `/${ECHO}/kinds/(?P<kind>a|b)`, endpoint({ methods: ['GET'], args: {}, response: echoed, permission: publicAccess, handler: (_ctx, args) => ({ body: args }) })),
  ];
}

/** Registers the echo namespace for a test app. */
export function withEcho(m: Mappings): Mappings {
  translators[ECHO] = echoRoutes;
  return { ...m, namespaces: { ...m.namespaces, [ECHO]: { mode: 'translate', aliases: ['legacy-echo/v1'], batch: true } } };
}
