import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ShadowComparison } from '../store/shadow.ts';
import { UNCANCELLED, type Backend, type BackendCall } from './backend.ts';
import { shadowing, ShadowLane } from './shadow.ts';
import { Deviations } from '../compare/deviations.ts';

const call = (method = 'GET', path = '/wp-json/history/v1/events/7'): BackendCall => ({
  method,
  path,
  query: '',
  headers: {},
  body: undefined,
  client: { ip: '127.0.0.1', protocol: 'http', host: 'lintel.test' },
  requestId: 'r',
  log: pino({ level: 'silent' }),
});

/** A backend answering JSON from a function of how many times it was called. */
function jsonBackend(body: (n: number) => unknown, status = 200): Backend & { calls: number } {
  const b = Object.assign(
    async () => {
      b.calls++;
      return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8' }, body: Buffer.from(JSON.stringify(body(b.calls))) };
    },
    { calls: 0 },
  );
  return b;
}

function setup(primary: Backend, secondary: Backend, over: { sample?: number; noiseSample?: number; lane?: ShadowLane; deviations?: Deviations } = {}) {
  const recorded: ShadowComparison[] = [];
  const lane = over.lane ?? new ShadowLane(4);
  const backend = shadowing({
    namespace: 'history/v1',
    primaryIs: 'legacy',
    sample: over.sample ?? 1,
    noiseSample: over.noiseSample ?? 0,
    lane,
    normalise: { aliases: { 'simple-history/v1': 'history/v1' } },
    routeOf: (c) => `${c.method} /history/v1/events/{n}`,
    record: async (c) => void recorded.push(c),
    deviations: over.deviations && ((c) => over.deviations!.forRoute(c.method, '/history/v1/events/{id}', { status: 200 })),
  })(primary, secondary);
  return { backend, recorded, lane };
}

describe('the shadow backend', () => {
  it("answers with the primary's answer and compares the other side's in the background", async () => {
    const primary = jsonBackend(() => ({ id: 7, title: 'Jazz', link: 'http://x/wp-json/simple-history/v1/events/7' }));
    const secondary = jsonBackend(() => ({ id: 7, title: 'Blues', link: 'http://x/wp-json/history/v1/events/7' }));
    const { backend, recorded, lane } = setup(primary, secondary);
    const answer = await backend(call(), UNCANCELLED);
    expect(JSON.parse(String(answer.body))).toMatchObject({ title: 'Jazz' });
    await lane.idle();
    expect(secondary.calls).toBe(1);
    expect(recorded).toHaveLength(1);
    // The legacy name in the link is normalised away; the title is a real difference.
    expect(recorded[0]).toMatchObject({ route: 'GET /history/v1/events/{n}', primarySide: 'legacy', differences: [{ path: '$.title', expected: 'Jazz', actual: 'Blues' }] });
    expect(recorded[0].primary.status).toBe(200);
  });

  it('never sends a write to the other side, and samples reads', async () => {
    const primary = jsonBackend(() => ({}));
    const secondary = jsonBackend(() => ({}));
    const { backend, lane } = setup(primary, secondary, { sample: 0 });
    await backend(call('POST'), UNCANCELLED);
    await backend(call('GET'), UNCANCELLED);
    await lane.idle();
    expect(primary.calls).toBe(2);
    expect(secondary.calls).toBe(0);
    const all = setup(primary, secondary);
    await all.backend(call('DELETE'), UNCANCELLED);
    await all.lane.idle();
    expect(secondary.calls).toBe(0);
  });

  it("learns the fields that differ between two of the primary's own answers and ignores them", async () => {
    const primary = jsonBackend((n) => ({ title: 'Jazz', generated_at: `t${n}`, rows: [{ nonce: n }] }));
    const secondary = jsonBackend(() => ({ title: 'Jazz!', generated_at: 'other', rows: [{ nonce: 'x' }] }));
    const { backend, recorded, lane } = setup(primary, secondary, { noiseSample: 1 });
    await backend(call(), UNCANCELLED);
    await lane.idle();
    expect(primary.calls).toBe(2); // asked twice: once for the client, once to learn its noise
    expect(recorded[0].differences.map((d) => d.path)).toEqual(['$.title']);
  });

  it('skips the comparison when the lane is full, without delaying the answer', async () => {
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    const lane = new ShadowLane(1);
    lane.tryRun(() => blocked);
    const secondary = jsonBackend(() => ({}));
    const { backend } = setup(jsonBackend(() => ({ ok: true })), secondary, { lane });
    expect((await backend(call(), UNCANCELLED)).status).toBe(200);
    release();
    await lane.idle();
    expect(secondary.calls).toBe(0);
  });

  it('counts what a row of DEVIATIONS.md allows on the route as a match, and anything else as a mismatch', async () => {
    const deviations = new Deviations([
      { id: 'listed', captures: '-', allows: 'body: $.message_html; header: Allow; routes: GET /history/v1/events/{id}' },
      { id: 'elsewhere', captures: '-', allows: 'body: $.title; routes: GET /history/v1/events' },
    ]);
    const primary = jsonBackend(() => ({ id: 7, title: 'Jazz', message_html: '<p>Jazz</p>' }));
    const counted: string[] = [];
    const listedOnly = setup(primary, jsonBackend(() => ({ id: 7, title: 'Jazz', message_html: '<p>Jazz!</p>' })), { deviations });
    const more = setup(primary, jsonBackend(() => ({ id: 7, title: 'Blues', message_html: '<p>Jazz!</p>' })), { deviations });
    for (const s of [listedOnly, more]) {
      await s.backend(call(), UNCANCELLED);
      await s.lane.idle();
      counted.push(...s.recorded.map((c) => c.differences.map((d) => d.path).join(',')));
    }
    // The title is allowed on another route only.
    expect(counted).toEqual(['', '$.title']);
  });
});
