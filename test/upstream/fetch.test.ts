/** The SSRF guard of outbound fetches: each rule, with undici's MockAgent (or a local server) as the remote side. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/upstream/address.ts';
import { guardedFetcher, type ResolvedAddress, type UpstreamOptions } from '../../src/upstream/fetch.ts';

const dns: Record<string, string[]> = {
  'public.test': ['93.184.215.14'],
  'mixed.test': ['93.184.215.14', '10.1.2.3'],
  'inside.test': ['192.168.1.10'],
  'meta.test': ['169.254.169.254'],
  'v6local.test': ['fd00:ec2::254'],
  'other.test': ['8.8.8.8'],
};
const resolve = async (host: string): Promise<ResolvedAddress[]> => {
  const a = dns[host];
  if (!a) throw new Error('ENOTFOUND');
  return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

function mocked(over: Partial<UpstreamOptions> = {}) {
  const mock = new MockAgent();
  mock.disableNetConnect();
  const pins: ResolvedAddress[] = [];
  const fetch = guardedFetcher({ allow: [], timeoutMs: 500, resolve, dispatcher: (p) => (pins.push(p), mock), ...over });
  return { mock, fetch, pins };
}

const rejects = async (p: Promise<unknown>, code: string, status: number) => {
  await expect(p).rejects.toMatchObject({ code, status });
};

describe('address classification', () => {
  it('refuses loopback, private, link-local, CGNAT, unique-local, metadata and mapped forms; accepts public', () => {
    for (const a of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '100.64.0.1', '100.100.100.200', '192.0.0.192', '0.0.0.0', '::1', '::', 'fd00:ec2::254', 'fe80::1', '::ffff:127.0.0.1', '::ffff:a00:1', '::127.0.0.1', '224.0.0.1'])
      expect(isPublicAddress(a), a).toBe(false);
    for (const a of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
  });
});

describe('guarded fetch', () => {
  it('fetches a public host and pins the connection to the checked address', async () => {
    const { mock, fetch, pins } = mocked();
    mock.get('http://public.test').intercept({ path: '/doc' }).reply(200, 'hello', { headers: { 'content-type': 'text/plain' } });
    const res = await fetch('http://public.test/doc');
    expect(res).toMatchObject({ status: 200, url: 'http://public.test/doc', headers: { 'content-type': 'text/plain' } });
    expect(res.body.toString()).toBe('hello');
    expect(pins).toEqual([{ address: '93.184.215.14', family: 4 }]);
  });

  it('refuses schemes other than http(s) and URLs it cannot parse', async () => {
    const { fetch } = mocked();
    await rejects(fetch('file:///etc/passwd'), 'upstream_invalid_url', 400);
    await rejects(fetch('gopher://public.test/'), 'upstream_invalid_url', 400);
    await rejects(fetch('not a url'), 'upstream_invalid_url', 400);
  });

  it('refuses hosts that resolve to private, link-local, metadata or unique-local addresses, and literal ones', async () => {
    const { fetch } = mocked();
    for (const host of ['inside.test', 'meta.test', 'v6local.test', 'mixed.test', '127.0.0.1', '[::1]', '169.254.169.254'])
      await rejects(fetch(`http://${host}/`), 'upstream_forbidden_address', 403);
    await rejects(fetch('http://nowhere.test/'), 'upstream_unresolved', 400);
  });

  it('lets an allow-listed host through even when it resolves inside', async () => {
    const { mock, fetch } = mocked({ allow: ['inside.test'] });
    mock.get('http://inside.test').intercept({ path: '/' }).reply(200, 'ok');
    expect((await fetch('http://inside.test/')).status).toBe(200);
  });

  it('checks every redirect target again and follows at most 3', async () => {
    const { mock, fetch } = mocked();
    mock.get('http://public.test').intercept({ path: '/to-inside' }).reply(302, '', { headers: { location: 'http://meta.test/latest/meta-data/' } });
    await rejects(fetch('http://public.test/to-inside'), 'upstream_forbidden_address', 403);

    mock.get('http://public.test').intercept({ path: '/hop' }).reply(301, '', { headers: { location: '/hop2' } });
    mock.get('http://public.test').intercept({ path: '/hop2' }).reply(307, '', { headers: { location: 'http://other.test/end' } });
    mock.get('http://other.test').intercept({ path: '/end' }).reply(200, 'end');
    const ok = await fetch('http://public.test/hop');
    expect(ok.url).toBe('http://other.test/end');
    expect(ok.body.toString()).toBe('end');

    for (let i = 0; i < 4; i++) mock.get('http://public.test').intercept({ path: `/loop${i}` }).reply(302, '', { headers: { location: `/loop${i + 1}` } });
    await rejects(fetch('http://public.test/loop0'), 'upstream_too_many_redirects', 400);
  });

  it('sends credentials on a redirect within the origin only, never to another host', async () => {
    const { mock, fetch } = mocked();
    const seen: Record<string, string | undefined> = {};
    const auth = (path: string) => (opts: { headers: Record<string, string> }) => {
      seen[path] = opts.headers.authorization ?? opts.headers.Authorization;
      return '';
    };
    mock.get('http://public.test').intercept({ path: '/a' }).reply(302, auth('/a'), { headers: { location: '/b' } });
    mock.get('http://public.test').intercept({ path: '/b' }).reply(302, auth('/b'), { headers: { location: 'http://other.test/c' } });
    mock.get('http://other.test').intercept({ path: '/c' }).reply(200, auth('/c'));
    await fetch('http://public.test/a', { headers: { authorization: 'Basic c2VjcmV0' } });
    expect(seen).toEqual({ '/a': 'Basic c2VjcmV0', '/b': 'Basic c2VjcmV0', '/c': undefined });
  });

  it('stops reading past the size cap', async () => {
    const { mock, fetch } = mocked({ maxBytes: 1000 });
    mock.get('http://public.test').intercept({ path: '/big' }).reply(200, 'x'.repeat(5000));
    await rejects(fetch('http://public.test/big'), 'upstream_too_large', 400);
  });

  it('gives up at the time limit, for a slow answer and for slow DNS', async () => {
    const { mock, fetch } = mocked({ timeoutMs: 150 });
    mock.get('http://public.test').intercept({ path: '/slow' }).reply(200, 'late').delay(2000);
    const started = Date.now();
    await rejects(fetch('http://public.test/slow'), 'upstream_timeout', 408);
    expect(Date.now() - started).toBeLessThan(1500);
    const slowDns = mocked({ timeoutMs: 150, resolve: () => new Promise(() => undefined) });
    await rejects(slowDns.fetch('http://public.test/'), 'upstream_timeout', 408);
  });
});

describe('pinning on a real connection', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => res.end(`served ${req.headers.host}`));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('connects to the address the guard checked, not to a fresh DNS answer', async () => {
    // `pinned.invalid` never resolves in real DNS: the request can only succeed through the pinned lookup.
    const fetch = guardedFetcher({ allow: ['pinned.invalid'], timeoutMs: 2000, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const res = await fetch(`http://pinned.invalid:${port}/`);
    expect(res.body.toString()).toBe(`served pinned.invalid:${port}`);
  });

  it('refuses the loopback server when it is not allow-listed', async () => {
    const fetch = guardedFetcher({ allow: [], timeoutMs: 2000 });
    await rejects(fetch(`http://127.0.0.1:${port}/`), 'upstream_forbidden_address', 403);
    await rejects(fetch(`http://localhost:${port}/`), 'upstream_forbidden_address', 403);
  });
});
