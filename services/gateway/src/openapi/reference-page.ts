import { Type } from '@sinclair/typebox';
import type { Media } from '../routing/route-contract';
import type { Json, JsonObject } from './schema-components';

/** What /docs answers. */
export const ReferencePageHtml: Media = { mediaType: 'text/html', schema: Type.String({ description: 'A self-contained HTML page.' }) };

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The document's prose uses backticks for code; nothing else of Markdown. */
const prose = (text: string) =>
  text
    .split(/\n\n+/)
    .map((paragraph) => `<p>${escape(paragraph).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
    .join('');

const asObject = (value: Json | undefined): JsonObject => (value && typeof value === 'object' && !Array.isArray(value) ? value : {});
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);
const anchor = (kind: 'op' | 'schema', name: string) => `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function bounds(min: Json | undefined, max: Json | undefined, unit: string): string {
  if (min === undefined && max === undefined) return '';
  if (min !== undefined && max !== undefined) return min === max ? ` (${min} ${unit})` : ` (${min} to ${max} ${unit})`;
  return min !== undefined ? ` (at least ${min} ${unit})` : ` (at most ${max} ${unit})`;
}

/** One schema as a reader wants it: a type in words, object fields as a table, named schemas as links. */
function schemaHtml(value: Json | undefined): string {
  const schema = asObject(value);
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#${anchor('schema', name)}">${escape(name)}</a>`;
  }
  if ('const' in schema) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) {
    const parts = variants.map(schemaHtml);
    return parts.every((part) => !part.includes('<table')) ? parts.join(' | ') : `one of:<ul>${parts.map((p) => `<li>${p}</li>`).join('')}</ul>`;
  }
  if (schema.type === 'array') return `array of ${schemaHtml(schema.items)}${bounds(schema.minItems, schema.maxItems, 'items')}`;
  if (schema.type === 'object' || schema.properties || schema.patternProperties) return objectHtml(schema);
  const constraints = [
    schema.format === 'date-time' ? ' (RFC 3339 timestamp)' : schema.format ? ` (${escape(String(schema.format))})` : '',
    bounds(schema.minLength, schema.maxLength, 'characters'),
    bounds(schema.minimum, schema.maximum, ''),
    typeof schema.pattern === 'string' ? ` matching <code>${escape(schema.pattern)}</code>` : '',
  ].join('');
  return `${escape(typeof schema.type === 'string' ? schema.type : 'any value')}${constraints}`;
}

function objectHtml(schema: JsonObject): string {
  const properties = asObject(schema.properties);
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const patterns = Object.values(asObject(schema.patternProperties));
  if (Object.keys(properties).length === 0) {
    return patterns.length > 0 ? `map of string to ${schemaHtml(patterns[0])}${bounds(schema.minProperties, schema.maxProperties, 'entries')}` : 'object';
  }
  const rows = Object.entries(properties).map(([name, property]) => {
    const description = asObject(property).description;
    return `<tr><td><code>${escape(name)}</code>${required.has(name) ? '' : ' <small>optional</small>'}</td><td>${schemaHtml(property)}</td><td>${
      typeof description === 'string' ? prose(description) : ''
    }</td></tr>`;
  });
  return `<table><tr><th>Field</th><th>Type</th><th>Notes</th></tr>${rows.join('')}</table>`;
}

function contentHtml(content: Json | undefined): string {
  return Object.entries(asObject(content))
    .map(([mediaType, media]) => {
      const { schema, 'x-itemSchema': item } = asObject(media);
      return `<div><code>${escape(mediaType)}</code>: ${schemaHtml(schema)}${item ? `<br>each event: ${schemaHtml(item)}` : ''}</div>`;
    })
    .join('');
}

function operationHtml(document: JsonObject, method: string, path: string, operation: JsonObject): string {
  const components = asObject(document.components);
  const resolve = (value: Json, kind: 'parameters' | 'responses') => {
    const ref = asObject(value).$ref;
    return typeof ref === 'string' ? asObject(asObject(components[kind])[refName(ref)]) : asObject(value);
  };
  const parameters = (Array.isArray(operation.parameters) ? operation.parameters : []).map((p) => resolve(p, 'parameters'));
  const parameterRows = parameters.map(
    (p) =>
      `<tr><td><code>${escape(String(p.name))}</code></td><td>${escape(String(p.in))}</td><td>${p.required ? 'required' : 'optional'}</td><td>${schemaHtml(
        p.schema,
      )}</td><td>${typeof p.description === 'string' ? prose(p.description) : ''}</td></tr>`,
  );
  const body = asObject(operation.requestBody);
  const responseRows = Object.entries(asObject(operation.responses)).map(([status, value]) => {
    const response = resolve(value, 'responses');
    return `<tr><td>${escape(status)}</td><td>${prose(String(response.description ?? ''))}</td><td>${contentHtml(response.content)}</td></tr>`;
  });
  const open = Array.isArray(operation.security) && operation.security.length === 0;
  return `<section id="${anchor('op', String(operation.operationId))}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code>${open ? ' <small>no credentials</small>' : ''}</h3>
${parameterRows.length > 0 ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th></th><th>Type</th><th>Notes</th></tr>${parameterRows.join('')}</table>` : ''}
${body.content ? `<h4>Request body</h4>${contentHtml(body.content)}` : ''}
<h4>Responses</h4><table><tr><th>Status</th><th>Meaning</th><th>Body</th></tr>${responseRows.join('')}</table>
</section>`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:1rem 2rem;color:#1b1b1b}
code{font:13px ui-monospace,monospace;background:#f3f3f3;padding:0 .2em}table{border-collapse:collapse;margin:.3rem 0;width:100%}
td,th{border:1px solid #ddd;padding:.25rem .45rem;text-align:left;vertical-align:top}th{background:#fafafa}td p{margin:0}
section{border-top:1px solid #ccc;margin-top:1.5rem}.method{font:bold 13px monospace;padding:.1em .4em;border-radius:3px;color:#fff;background:#555}
.get{background:#2f6f9f}.post{background:#3a7d44}.delete{background:#a33}nav ul{columns:2}small{color:#777}`;

/**
 * The reference page at /docs: the OpenAPI document rendered on the server into one
 * self-contained HTML page (inline style, no script, nothing fetched from elsewhere), so it
 * works offline and from the image as it is.
 */
export function referencePage(document: JsonObject): string {
  const info = asObject(document.info);
  const byTag = new Map<string, string[]>();
  const nav = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(asObject(document.paths))) {
    for (const [method, value] of Object.entries(asObject(methods))) {
      const operation = asObject(value);
      const tag = String((Array.isArray(operation.tags) && operation.tags[0]) || 'other');
      (byTag.get(tag) ?? byTag.set(tag, []).get(tag)!).push(operationHtml(document, method, path, operation));
      (nav.get(tag) ?? nav.set(tag, []).get(tag)!).push(
        `<li><a href="#${anchor('op', String(operation.operationId))}">${method.toUpperCase()} ${escape(path)}</a></li>`,
      );
    }
  }
  const schemas = Object.entries(asObject(asObject(document.components).schemas)).map(
    ([name, schema]) =>
      `<section id="${anchor('schema', name)}"><h3>${escape(name)}</h3>${
        typeof asObject(schema).description === 'string' ? prose(String(asObject(schema).description)) : ''
      }${schemaHtml(schema)}</section>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(String(info.title))} ${escape(String(info.version))}</title><style>${STYLE}</style></head>
<body><h1>${escape(String(info.title))} <small>${escape(String(info.version))}</small></h1>
${prose(String(info.description ?? ''))}
<p>The machine-readable form of this page: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${escape(String(document.openapi))}).</p>
<nav>${[...nav].map(([tag, items]) => `<h4>${escape(tag)}</h4><ul>${items.join('')}</ul>`).join('')}<h4><a href="#schemas">Schemas</a></h4></nav>
${[...byTag].map(([tag, sections]) => `<h2>${escape(tag)}</h2>${sections.join('\n')}`).join('\n')}
<h2 id="schemas">Schemas</h2>
${schemas.join('\n')}
</body></html>`;
}
