/**
 * The API documentation page: Swagger UI (served from `node_modules`, no CDN) over `/openapi.json`,
 * and the same document rendered as plain HTML inside `<noscript>`, one section per namespace, for
 * browsers without script. Both show each operation's parameters, its success answer with an
 * example, and who may call it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { JsonSchema } from '../../contract/describe.ts';
import type { OpenApiDocument } from '../../contract/openapi.ts';
import { escapeHtml } from '../../lib/html.ts';

// Script only from this origin (Swagger UI and its start-up file), no inline script; Swagger UI sets inline styles.
export const API_DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page's assets, by name under `/api-docs/`: Swagger UI's files as installed, and its start-up script. */
export const API_DOCS_ASSETS: Record<string, { type: string; body: () => string }> = {
  'swagger-ui.css': { type: 'text/css; charset=UTF-8', body: () => readFileSync(path.join(SWAGGER_DIR, 'swagger-ui.css'), 'utf8') },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=UTF-8', body: () => readFileSync(path.join(SWAGGER_DIR, 'swagger-ui-bundle.js'), 'utf8') },
  'start.js': {
    type: 'text/javascript; charset=UTF-8',
    body: () =>
      "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'none', defaultModelsExpandDepth: 0, displayOperationId: false, tryItOutEnabled: false });\n",
  },
};

/** A made-up value of the schema's shape, for the no-script page's examples (Swagger UI makes its own). */
export function exampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if ('examples' in schema && Array.isArray(schema.examples)) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives?.length) return exampleOf(alternatives[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required as string[] | undefined) ?? Object.keys(props));
      return Object.fromEntries(Object.entries(props).filter(([k]) => required.has(k)).map(([k, v]) => [k, exampleOf(v, depth + 1)]));
    }
    case 'array': {
      const prefix = schema.prefixItems as JsonSchema[] | undefined;
      if (prefix) return prefix.map((p) => exampleOf(p, depth + 1));
      return schema.items ? [exampleOf(schema.items as JsonSchema, depth + 1)] : [];
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      return schema.format === 'date-time' ? '2026-01-01T12:00:00Z' : 'string';
    default:
      return null;
  }
}

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if ('const' in schema) return JSON.stringify(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map((a) => typeOf(a)).join(' or ');
  const t = Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
  const items = schema.items as JsonSchema | undefined;
  return t === 'array' && items ? `array of ${typeOf(items)}` : t + (schema.format ? ` (${String(schema.format)})` : '');
}

interface Row {
  name: string;
  where: string;
  required: boolean;
  schema: JsonSchema;
}

function rows(op: JsonSchema): Row[] {
  const out: Row[] = ((op.parameters as JsonSchema[]) ?? []).map((p) => ({
    name: String(p.name),
    where: String(p.in),
    required: p.required === true,
    schema: p.schema as JsonSchema,
  }));
  const body = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content?.['application/json']?.schema;
  const required = new Set((body?.required as string[]) ?? []);
  for (const [name, schema] of Object.entries((body?.properties as Record<string, JsonSchema>) ?? {})) {
    out.push({ name, where: 'body', required: required.has(name), schema });
  }
  return out;
}

/** The schema with its references to the document's components replaced by the components (they hold no cycles). */
function inlined(value: unknown, components: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((v) => inlined(v, components));
  if (typeof value !== 'object' || value === null) return value;
  const ref = (value as JsonSchema).$ref;
  if (typeof ref === 'string') return inlined(components[ref.slice('#/components/schemas/'.length)], components);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inlined(v, components)]));
}

/** The success answer: status, content type, its top-level fields and an example body. */
function responseHtml(op: JsonSchema, components: Record<string, JsonSchema>): string {
  const [status, response] = Object.entries(op.responses as Record<string, JsonSchema>)[0]!;
  const [type, media] = Object.entries((response.content ?? {}) as Record<string, { schema: JsonSchema }>)[0] ?? ['', { schema: {} }];
  const schema = inlined(media.schema, components) as JsonSchema;
  const fields = Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {});
  const table = fields.length
    ? `<table><thead><tr><th scope="col">field</th><th scope="col">type</th></tr></thead><tbody>${fields
        .map(([name, s]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(typeOf(s))}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  const example = type.includes('json') ? `<details><summary>Example</summary><pre><code>${escapeHtml(JSON.stringify(exampleOf(schema), null, 2))}</code></pre></details>` : '';
  return `<p class="ok">Answers <strong>${escapeHtml(status)}</strong> <code>${escapeHtml(type)}</code>: ${escapeHtml(typeOf(schema))}${schema.description ? ` (${escapeHtml(String(schema.description))})` : ''}.</p>${table}${example}`;
}

function operationHtml(method: string, path: string, op: JsonSchema, components: Record<string, JsonSchema>): string {
  const params = rows(op);
  const table = params.length
    ? `<table><thead><tr><th scope="col">parameter</th><th scope="col">in</th><th scope="col">type</th><th scope="col">required</th><th scope="col">default</th><th scope="col">description</th></tr></thead><tbody>${params
        .map(
          (r) =>
            `<tr><td><code>${escapeHtml(r.name)}</code></td><td>${r.where}</td><td>${escapeHtml(typeOf(r.schema))}</td><td>${r.required ? 'yes' : 'no'}</td><td>${
              r.schema && 'default' in r.schema ? `<code>${escapeHtml(JSON.stringify(r.schema.default))}</code>` : ''
            }</td><td>${escapeHtml(String(r.schema?.description ?? ''))}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p>No parameters.</p>';
  const batch = op['x-allow-batch'] ? ' <span class="tag">batch/v1</span>' : '';
  const roles = op['x-roles'] as string[];
  const who = roles.includes('anonymous') ? 'Anyone (some records need credentials).' : `Needs a user with the role: ${roles.join(', ')}.`;
  return `<section class="op"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${batch}</h3><p>${escapeHtml(String(op.summary ?? ''))}</p><p class="who">${escapeHtml(who)}</p>${table}${responseHtml(op, components)}</section>`;
}

export function apiDocsPage(doc: OpenApiDocument, siteName: string): string {
  const components = (doc.components as { schemas: Record<string, JsonSchema> }).schemas;
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = String((op.tags as string[])[0]);
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(method, path, op, components));
    }
  }
  const anchor = (tag: string) => `ns-${tag.replace(/[^a-z0-9]+/gi, '-')}`;
  const server = String((doc.servers as { url: string }[])[0]?.url ?? '');
  const nav = [...byTag.keys()].map((t) => `<li><a href="#${anchor(t)}">${escapeHtml(t)}</a> (${byTag.get(t)!.length})</li>`).join('');
  const sections = [...byTag]
    .map(([tag, ops]) => `<section aria-labelledby="${anchor(tag)}"><h2 id="${anchor(tag)}">${escapeHtml(tag)}</h2>${ops.join('')}</section>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(siteName)}: API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api-docs/swagger-ui.css">
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1a1a1a;background:#fff}
code{font-family:ui-monospace,monospace;overflow-wrap:anywhere}pre{overflow-x:auto;background:#f5f5f5;padding:.5rem}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.op{border-top:1px solid #ddd;margin-top:1rem}.m{display:inline-block;min-width:4.5rem;font-size:.85rem;padding:0 .4rem;border-radius:.25rem;color:#fff;background:#333}
.get{background:#1b5e20}.post{background:#0d47a1}.put,.patch{background:#6a1b9a}.delete{background:#b71c1c}.tag{font-size:.8rem;border:1px solid #999;border-radius:.25rem;padding:0 .3rem}
</style></head><body>
<header><h1>${escapeHtml(siteName)}: API reference</h1>
<p>Base address: <code>${escapeHtml(server)}</code>. Machine-readable: <a href="/openapi.json">OpenAPI 3.1 document</a>. Write routes and private reads take HTTP Basic with an application password; each operation names the roles it needs.</p></header>
<div id="swagger-ui"></div>
<noscript>
<nav aria-label="Namespaces"><ul>${nav}</ul></nav>
<main>${sections}</main>
</noscript>
<script src="/api-docs/swagger-ui-bundle.js"></script>
<script src="/api-docs/start.js"></script>
</body></html>`;
}
