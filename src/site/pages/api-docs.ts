/**
 * The API documentation page: the OpenAPI document rendered as plain HTML (no script, so it
 * works under a strict CSP and in any browser), one section per namespace.
 */
import type { JsonSchema } from '../../contract/describe.ts';
import type { OpenApiDocument } from '../../contract/openapi.ts';
import { escapeHtml } from '../html.ts';

export const API_DOCS_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'";

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return '';
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
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

function operationHtml(method: string, path: string, op: JsonSchema): string {
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
  return `<section class="op"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${batch}</h3>${table}</section>`;
}

export function apiDocsPage(doc: OpenApiDocument, siteName: string): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = String((op.tags as string[])[0]);
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(method, path, op));
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
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem;color:#1a1a1a;background:#fff}
code{font-family:ui-monospace,monospace;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
.op{border-top:1px solid #ddd;margin-top:1rem}.m{display:inline-block;min-width:4.5rem;font-size:.85rem;padding:0 .4rem;border-radius:.25rem;color:#fff;background:#333}
.get{background:#1b5e20}.post{background:#0d47a1}.put,.patch{background:#6a1b9a}.delete{background:#b71c1c}.tag{font-size:.8rem;border:1px solid #999;border-radius:.25rem;padding:0 .3rem}
</style></head><body>
<header><h1>${escapeHtml(siteName)}: API reference</h1>
<p>Base address: <code>${escapeHtml(server)}</code>. Machine-readable: <a href="/openapi.json">OpenAPI 3.1 document</a>. Write routes and private reads take HTTP Basic with an application password.</p>
<nav aria-label="Namespaces"><ul>${nav}</ul></nav></header>
<main>${sections}</main></body></html>`;
}
