/**
 * Which backend serves what, as `mappings/` says: per namespace (under its name, each alias, every
 * locale prefix and the `?rest_route=` form, which all reach the same REST route) `translate`
 * (Lintel's pipeline, not listed here), `forward` or `shadow`; and outside the REST prefix, with
 * `site.forwardUnmatched`, whatever no page or redirect answers.
 */
import type { Config } from '../config.ts';
import type { Mappings, NamespaceMapping } from '../mappings.ts';
import type { Mode, ModeOverride } from '../store/namespace-modes.ts';
import { parseQueryString } from '../lib/php-params.ts';
import { locateRest } from '../http/rest-request.ts';
import type { Metrics } from '../http/metrics.ts';
import type { ShadowComparison } from '../store/shadow.ts';
import type { Backend, BackendCall, Middleware } from './backend.ts';
import { climbsOut } from './rename.ts';
import { restFailure, siteFailure } from './failure.ts';
import { forwardBackend, openOrigin, type Origin } from './forward.ts';
import { forwardedIndex, originIndex, type ForwardedIndex, type ForwardedNamespace } from './legacy-index.ts';
import { shadowing, ShadowLane } from './shadow.ts';
import { type LegacyAnswer, loadDeviations } from '../compare/deviations.ts';
import { isRecordPage } from '../http/record-paths.ts';

/** The namespace whose mode the calendar's site pages, feeds and oEmbed follow. */
export const CALENDAR = 'calendar/events/v1';

export interface Chosen {
  mode: 'forward' | 'shadow';
  /** Who answers, and so who receives writes: the legacy site (forward; shadow with the legacy primary) or Lintel. */
  answeredBy: 'legacy' | 'lintel';
  /** The contract's name of the namespace. */
  namespace: string;
  backend: Backend;
}

export interface Backends {
  /** The backend of a REST route whose namespace is forwarded or shadowed; null: Lintel's own pipeline answers. */
  forRoute(route: string): Chosen | null;
  /** Site requests no page or redirect answers (`site.forwardUnmatched`); null: the site's 404. */
  site: Backend | null;
  /** Site pages sent to the origin as they are (the calendar's pages and feeds while the origin answers the calendar). */
  pages: Backend;
  /**
   * oEmbed of a calendar page (`oembed/1.0/embed?url=.../event/{slug}/`) while the origin answers
   * the calendar: sent to the origin, whose record it is (null: Lintel answers).
   */
  forEmbed(route: string, url: unknown): Chosen | null;
  /** The forwarded namespaces' part of the site index. */
  index: ForwardedIndex;
  /** The mode each namespace of `mappings/` is served in now. */
  modes(): Record<string, Mode>;
  /** Serves namespaces as `lintel mode` set them (kept in the store), over what `mappings/` says. */
  override(overrides: readonly ModeOverride[]): void;
  /**
   * Reads the origin's index and names the first forwarded or shadowed namespace whose `upstream`
   * the origin does not serve (a mapping that would answer only 404s); null when all are served or
   * the origin cannot be read now (then nothing can be told).
   */
  unservedUpstream(): Promise<string | null>;
  /** Resolves when no shadow comparison is running. */
  shadowIdle(): Promise<void>;
  close(): Promise<void>;
}

interface Named extends Chosen {
  name: string;
}

export interface BackendDeps {
  config: Config;
  mappings: Mappings;
  log: { warn: (o: object, m: string) => void };
  /** Lintel's own pipeline (shadow mode runs it beside the origin). */
  translate: Backend;
  /** Shadow mode: stores one comparison of a primary's and a shadow's answer. */
  record: (c: ShadowComparison) => Promise<void>;
  /** Tests give the origin's pool (undici MockAgent). */
  origin?: Origin;
  /**
   * The contract's template of a REST route (`/calendar/events/v1/events/{id}` for
   * `/calendar/events/v1/events/12`), from the route table; null when no route matches. Shadow mode
   * applies the rows of DEVIATIONS.md naming it.
   */
  templateOf?: (method: string, route: string) => string | null;
  /** Counts forwarded calls and shadow comparisons. */
  metrics?: Pick<Metrics, 'upstream' | 'shadow'>;
}

/** The metrics middleware: every answer of a forwarding backend counted by status class (502 and 504 are Lintel's own failures). */
function metered(metrics: BackendDeps['metrics']): Middleware {
  return (next) =>
    metrics
      ? async (call, signal) => {
          const answer = await next(call, signal);
          metrics.upstream.inc({ kind: 'forward', outcome: `${Math.floor(answer.status / 100)}xx` });
          return answer;
        }
      : next;
}

export function buildBackends(deps: BackendDeps): Backends {
  const { config, mappings } = deps;
  const origin = deps.origin ?? (config.legacyOrigin ? openOrigin(config.legacyOrigin, config.forwardTimeoutMs, config.forwardJsonLimit) : null);
  const counted = metered(deps.metrics);
  const lane = new ShadowLane(config.shadowConcurrency);
  /** `GET /history/v1/events/{n}`: the contract's name, numbers generalised, so answers of one route count together. */
  const contractRoute = (call: BackendCall, name: string, namespace: string) => {
    const loc = locateRest(call.path, parseQueryString(call.query), { restPrefix: config.restPrefix, locales: mappings.locales });
    return (loc?.route ?? call.path).replace(new RegExp(`^/${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$)`, 'i'), `/${namespace}`);
  };
  const routeOf = (call: BackendCall, name: string, namespace: string) => `${call.method.toUpperCase()} ${contractRoute(call, name, namespace).replace(/\/\d+(?=\/|$)/g, '/{n}')}`;
  const deviations = loadDeviations();
  /** The rows of DEVIATIONS.md for a call's route template and the legacy site's answer to it. */
  const listedFor = (call: BackendCall, name: string, namespace: string, legacy: LegacyAnswer) => {
    const template = deps.templateOf?.(call.method, contractRoute(call, name, namespace));
    return template ? deviations.forRoute(call.method, template, legacy) : [];
  };
  /** The backends of every forwarded or shadowed name, for namespaces served as `namespaces` says. */
  const serve = (namespaces: Record<string, NamespaceMapping>) => {
    const named: Named[] = [];
    const forwarded: ForwardedNamespace[] = [];
    for (const [namespace, m] of Object.entries(namespaces)) {
      if (m.mode === 'translate') continue;
      const upstream = m.upstream ?? namespace;
      const names = [namespace, ...m.aliases];
      if (m.mode === 'forward') forwarded.push({ contract: namespace, names, upstream });
      for (const name of names) {
        const forward = counted(
          forwardBackend({
            origin,
            lintelBase: config.baseUrl,
            renamings: [{ requested: name, upstream }],
            rest: { restPrefix: config.restPrefix, locales: mappings.locales },
            trustProxy: config.trustProxy,
            rewriteBodies: true,
            failure: restFailure(config),
          }),
        );
        const primaryIs = m.primary ?? 'legacy';
        const backend =
          m.mode === 'forward'
            ? forward
            : shadowing({
                namespace,
                primaryIs,
                sample: m.sample ?? 1,
                noiseSample: config.shadowNoiseSample,
                lane,
                normalise: { aliases: { [upstream]: namespace, ...Object.fromEntries(m.aliases.map((a) => [a, namespace])) } },
                routeOf: (call) => routeOf(call, name, namespace),
                deviations: (call, legacy) => listedFor(call, name, namespace, legacy),
                record: deps.record,
                count: (result) => deps.metrics?.shadow.inc({ namespace, result }),
              })(...(primaryIs === 'lintel' ? [deps.translate, forward] : [forward, deps.translate]));
        named.push({ name: name.toLowerCase(), namespace, mode: m.mode, answeredBy: m.mode === 'forward' ? 'legacy' : primaryIs, backend });
      }
    }
    // The longest name first: `calendar/events/v1` before a shorter namespace it starts with.
    named.sort((a, b) => b.name.length - a.name.length);
    const index = forwardedIndex({ origin, restPrefix: config.restPrefix, lintelBase: config.baseUrl, forwarded, ttlMs: config.forwardIndexTtlS * 1000, log: deps.log });
    return { named, index, modes: Object.fromEntries(Object.entries(namespaces).map(([ns, m]) => [ns, m.mode])) };
  };
  let current = serve(mappings.namespaces);
  const pages = counted(forwardBackend({ origin, lintelBase: config.baseUrl, renamings: [], trustProxy: config.trustProxy, rewriteBodies: false, failure: siteFailure }));
  const site = mappings.site?.forwardUnmatched ? pages : null;
  const embeds = counted(
    forwardBackend({
      origin,
      lintelBase: config.baseUrl,
      renamings: [],
      rest: { restPrefix: config.restPrefix, locales: mappings.locales },
      trustProxy: config.trustProxy,
      rewriteBodies: true,
      failure: restFailure(config),
    }),
  );
  if (!origin && (current.named.length > 0 || site)) {
    deps.log.warn({}, 'mappings/ forwards to the legacy site but LINTEL_LEGACY_ORIGIN is not set: those requests are answered 502 rest_upstream_unavailable');
  }
  return {
    forRoute(route) {
      // A path that climbs out of its namespace is no forwarded route (Lintel answers rest_no_route).
      if (climbsOut(route)) return null;
      const r = route.toLowerCase();
      return current.named.find((n) => r === `/${n.name}` || r.startsWith(`/${n.name}/`)) ?? null;
    },
    site,
    pages,
    forEmbed(route, url) {
      if (!/^\/oembed\/1\.0\/embed\/?$/i.test(route) || typeof url !== 'string' || !URL.canParse(url)) return null;
      if (!isRecordPage(new URL(url).pathname) || this.forRoute(`/${CALENDAR}`)?.answeredBy !== 'legacy') return null;
      return { mode: 'forward', answeredBy: 'legacy', namespace: 'oembed/1.0', backend: embeds };
    },
    // One object for the site index to hold: it reads whichever namespaces are forwarded now.
    index: {
      get namespaces() {
        return current.index.namespaces;
      },
      routes: () => current.index.routes(),
    },
    modes: () => current.modes,
    async unservedUpstream() {
      const sent = Object.entries(mappings.namespaces).filter(([ns]) => current.modes[ns] !== 'translate');
      if (!origin || sent.length === 0) return null;
      let served: Set<string>;
      try {
        served = new Set(((await originIndex(origin, config.restPrefix)).namespaces ?? []).map((n) => n.toLowerCase()));
      } catch (err) {
        deps.log.warn({ err, origin: origin.base }, 'could not read the legacy origin index to check the mappings');
        return null;
      }
      for (const [ns, m] of sent) {
        const upstream = (m.upstream ?? ns).toLowerCase();
        if (served.has(upstream)) continue;
        const alias = m.aliases.find((a) => served.has(a.toLowerCase()));
        const hint = alias ? `; it serves the alias ${alias}: set "upstream": "${alias}"` : '; set "upstream" to the name it serves it under';
        return `mappings/namespaces.json: ${ns} (${current.modes[ns]}) reaches the legacy origin ${origin.base} as ${upstream}, a namespace it does not serve${hint}`;
      }
      return null;
    },
    override(overrides) {
      const namespaces = { ...mappings.namespaces };
      for (const o of overrides) {
        const m = namespaces[o.namespace];
        if (!m) continue;
        namespaces[o.namespace] =
          o.mode === 'shadow' ? { ...m, mode: 'shadow', primary: o.primary ?? m.primary ?? 'legacy', sample: m.sample ?? 1 } : { ...m, mode: o.mode, primary: undefined, sample: undefined };
      }
      current = serve(namespaces);
    },
    shadowIdle: () => lane.idle(),
    close: async () => {
      await lane.idle();
      await origin?.close();
    },
  };
}
