/**
 * The route table: every declared route compiled to a case-insensitive anchored regex, matched
 * in declaration order like WordPress, with namespace aliases served by the same declarations.
 */
import type { User } from '../lib/roles.ts';
import type { Endpoint, Method, RouteDecl } from './route.ts';
import { compileArgs, type CompiledArg } from './validate.ts';

export interface CompiledEndpoint {
  endpoint: Endpoint;
  args: CompiledArg[];
}

export interface CompiledRoute {
  decl: RouteDecl;
  /** The namespace this compiled copy answers under (the declared one or an alias). */
  namespace: string;
  pattern: string;
  /** The pattern as the contract declares it (an alias's copy answers under another namespace). */
  declaredPattern: string;
  regex: RegExp;
  /** Path parameters that are record IDs (a digits-only group such as `(?P<id>\d+)`). */
  integerParams: string[];
  endpoints: CompiledEndpoint[];
}

const INTEGER_GROUP = /\(\?P<(\w+)>(?:\\d|\[\\d\]|\[0-9\])\+\)/g;

export interface RouteMatch {
  route: CompiledRoute;
  endpoint: CompiledEndpoint | null; // null: the route exists but not for this method
  urlParams: Record<string, string>;
}

/** Whose request is routed: a route not shown to this user is skipped (absent: every route, as for metrics' labels). */
export interface Viewer {
  user: User | null;
}

export class RouteTable {
  readonly routes: CompiledRoute[] = [];
  readonly namespaces: string[] = [];

  add(decl: RouteDecl, alias?: string): void {
    const namespace = alias ?? decl.namespace;
    const pattern = alias ? decl.pattern.replace(decl.namespace, alias) : decl.pattern;
    const source = pattern.replace(/\(\?P</g, '(?<');
    const existing = this.routes.find((r) => r.pattern === pattern);
    const endpoints = decl.endpoints.map((endpoint) => ({ endpoint, args: compileArgs(endpoint.args) }));
    if (existing) {
      // Several declarations of one pattern add endpoints to the same route, as register_rest_route does.
      existing.endpoints.push(...endpoints);
      existing.decl = { ...existing.decl, endpoints: [...existing.decl.endpoints, ...decl.endpoints] };
      return;
    }
    if (namespace && !this.namespaces.includes(namespace)) this.namespaces.push(namespace);
    const integerParams = [...pattern.matchAll(INTEGER_GROUP)].map((m) => m[1]!);
    this.routes.push({ decl: { ...decl, namespace, pattern }, namespace, pattern, declaredPattern: decl.pattern, regex: new RegExp(`^${source}$`, 'i'), integerParams, endpoints });
  }

  /** Candidate routes are those of the namespaces the path starts with, else all (as WordPress). */
  private candidates(path: string, viewer?: Viewer): CompiledRoute[] {
    const p = `${path.replace(/^\//, '').toLowerCase()}/`;
    const inNs = this.routes.filter((r) => r.namespace && p.startsWith(`${r.namespace.toLowerCase()}/`));
    const routes = inNs.length ? inNs : this.routes;
    return viewer ? routes.filter((r) => r.decl.shownTo?.(viewer.user) ?? true) : routes;
  }

  match(path: string, method: Method | 'HEAD', viewer?: Viewer): RouteMatch | null {
    let routeOnly: RouteMatch | null = null;
    for (const route of this.candidates(path, viewer)) {
      const m = route.regex.exec(path);
      if (!m) continue;
      const urlParams: Record<string, string> = { ...(m.groups ?? {}) };
      const want = method === 'HEAD' ? 'GET' : method;
      const endpoint = route.endpoints.find((e) => e.endpoint.methods.includes(want)) ?? null;
      if (endpoint) return { route, endpoint, urlParams };
      routeOnly ??= { route, endpoint: null, urlParams };
    }
    return routeOnly;
  }

  /** The first route whose pattern matches, whatever the method (OPTIONS answers from it). */
  find(path: string, viewer?: Viewer): CompiledRoute | null {
    return this.candidates(path, viewer).find((r) => r.regex.test(path)) ?? null;
  }

  inNamespace(namespace: string): CompiledRoute[] {
    return this.routes.filter((r) => r.namespace === namespace);
  }
}
