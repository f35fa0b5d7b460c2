/**
 * `/openapi.json` as a toolchain takes it: Redocly's recommended lint finds no error, and a
 * client generated with openapi-typescript types the response bodies (not `unknown`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../support/app.ts';
import { scaled } from '../support/time.ts';

let app: TestApp;
let source: string;
beforeAll(async () => {
  app = await testApp();
  source = (await app.server.inject({ url: '/openapi.json' })).body;
});
afterAll(() => app.close());

describe('/openapi.json', () => {
  it('passes Redocly lint with the recommended rules without an error', async () => {
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('gives openapi-typescript the response bodies: an event read is typed, not unknown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lintel-openapi-'));
    try {
      writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(JSON.parse(source))));
      // Each line type-checks only when the body type has the event's fields with their types.
      writeFileSync(
        join(dir, 'client.ts'),
        `import type { paths } from './api.ts';
type Event = paths['/calendar/events/v1/events/{id}']['get']['responses'][200]['content']['application/json'];
type Archive = paths['/calendar/events/v1/events']['get']['responses'][200]['content']['application/json'];
export const id: Event['id'] = 1;
export const title: Event['title'] = 'A title';
export const first: Archive['events'][number]['start_date_details']['year'] = '2026';
// @ts-expect-error an event's id is a number
export const wrong: Event['id'] = 'one';
// @ts-expect-error an event has no such field
export const missing: Event['no_such_field'] = 1;
`,
      );
      const program = ts.createProgram([join(dir, 'client.ts')], { strict: true, noEmit: true, allowImportingTsExtensions: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true });
      const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, scaled(60_000));
});
