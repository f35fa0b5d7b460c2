/**
 * `oembed/1.0`: `embed` (the oEmbed document of a record of this site, public) and `proxy` (a
 * remote page's oEmbed document, for editors). The namespace index is added by the route table.
 */
import { arg } from '../../contract/args.ts';
import { errors } from '../../contract/error-codes.ts';
import { RestError } from '../../contract/errors.ts';
import { needs, publicAccess } from '../../contract/permission.ts';
import { json } from '../../contract/reply.ts';
import { endpoint, route, type RestResult, type RouteDecl } from '../../contract/route.ts';
import type { RestContext } from '../../contract/context.ts';
import type { Services } from '../../services.ts';
import { upstreamFetcher } from '../../upstream/fetch.ts';
import { absint, embedDocument, OembedDocument, oembedXml, XML_TYPE } from './document.ts';
import { publicEmbeddable, type EmbeddableLookup } from './embeddable.ts';
import { loadProviders } from './providers.ts';
import { OembedProxy, type RemoteOembed } from './proxy.ts';

const NS = 'oembed/1.0';
const urlArg = () => arg.string({ description: 'The URL of the resource for which to fetch oEmbed data.', format: 'uri', required: true });

/** The embed route's answer in the asked format; in XML, errors are XML too, as on the legacy site. */
async function inFormat(format: unknown, work: () => Promise<Record<string, unknown>>): Promise<RestResult> {
  if (format !== 'xml') return { body: await work() };
  try {
    return { body: oembedXml(await work()), raw: { contentType: XML_TYPE } };
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return { status: e.status, body: oembedXml({ ...e.toBody() }), raw: { contentType: XML_TYPE } };
  }
}

function parseUrl(raw: unknown): URL | null {
  try {
    return new URL(String(raw));
  } catch {
    return null;
  }
}

async function localDocument(lookup: EmbeddableLookup, ctx: RestContext, url: URL | null, maxwidth: unknown) {
  const record = url && (await publicEmbeddable(lookup, url, ctx));
  // Venues and organizers have pages but are no public post types without Events Calendar Pro: the legacy site embeds events only.
  if (record?.kind !== 'event') throw errors.oembed.invalidUrl();
  const site = await ctx.store.options.site();
  return embedDocument(record, { name: site.name, home: ctx.urls.home }, maxwidth);
}

export function oembedRoutes(services: Services, lookup: EmbeddableLookup, remote?: RemoteOembed): RouteDecl[] {
  const proxy = new OembedProxy(remote ?? { providers: loadProviders(services.config.mappingsDir), fetch: upstreamFetcher(services.config) });
  return [
    route(
      NS,
      '/oembed/1.0/embed',
      endpoint({
        methods: ['GET'],
        args: { url: urlArg(), format: arg.untyped({ default: 'json' }), maxwidth: arg.untyped({ default: 600 }) },
        response: json(OembedDocument),
        permission: publicAccess,
        // Nothing sent reaches the store as sent: `url` loses its NUL bytes to esc_url_raw (a record is
        // looked up by a slug without one), `format` is only compared, the sizes are read as integers.
        // A NUL byte is then answered as on the legacy site (core-nul-bytes).
        storesNoInput: true,
        handler: (ctx, a) => inFormat(a.format, () => localDocument(lookup, ctx, parseUrl(a.url), a.maxwidth)),
      }),
    ),
    route(
      NS,
      '/oembed/1.0/proxy',
      endpoint({
        methods: ['GET'],
        args: {
          url: urlArg(),
          format: arg.enum(['json', 'xml'], { description: 'The oEmbed format to use.', default: 'json' }),
          // Declared integers whose sanitize callback is absint: WordPress then never checks their type.
          maxwidth: arg.untyped({ description: 'The maximum width of the embed frame in pixels.', default: 600, keywords: { type: 'integer' } }),
          maxheight: arg.untyped({ description: 'The maximum height of the embed frame in pixels.', keywords: { type: 'integer' } }),
          discover: arg.boolean({ description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', default: true }),
        },
        response: json(OembedDocument),
        permission: needs('edit_posts', errors.oembed.cannotProxy),
        // As the embed route's; the remote fetch is sent the cleaned `url`.
        storesNoInput: true,
        // Always JSON: WordPress writes XML for the embed route only, whatever `format` the proxy is sent.
        handler: async (ctx, a) => {
          const url = parseUrl(a.url);
          // URLs of this site are answered from its own records, without a request to itself.
          if (!url || url.origin === new URL(ctx.urls.base).origin) return { body: await localDocument(lookup, ctx, url, a.maxwidth) };
          const maxwidth = absint(a.maxwidth);
          const maxheight = a.maxheight === undefined ? undefined : absint(a.maxheight);
          const data = await proxy.get({ url: url.href, maxwidth, maxheight, discover: a.discover });
          if (!data) throw errors.oembed.invalidUrl();
          return { body: data };
        },
      }),
    ),
  ];
}

/** The namespace's factory for `src/namespaces/index.ts`, over the records the lookup finds. */
export function oembedNamespace(lookup: EmbeddableLookup, remote?: RemoteOembed) {
  return (services: Services) => oembedRoutes(services, lookup, remote);
}
