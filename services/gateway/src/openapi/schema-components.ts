import { Kind, OptionalKind, type TSchema } from '@sinclair/typebox';

/** A JSON value as the document carries it. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export type JsonObject = { [key: string]: Json };

/** The children a shape keeps by reference when TypeBox copies it (`Type.Optional` spreads the schema into a new object). */
const SHAPE_CHILDREN = ['properties', 'anyOf', 'patternProperties'] as const;

/**
 * TypeBox schemas are JSON Schema already: this writes them into the document as they are,
 * except that a schema with a name (`schemaNames`, the exports of shared/schema/) is written
 * once under `components.schemas` and referred to with `$ref` wherever it recurs. Only what the
 * routes reach is written.
 */
export class SchemaComponents {
  private readonly written = new Map<string, Json>();
  private readonly byChild = new Map<object, string>();
  private readonly exported: ReadonlySet<string>;

  constructor(private readonly names: ReadonlyMap<TSchema, string>) {
    this.exported = new Set(names.values());
    for (const [schema, name] of names) {
      for (const key of SHAPE_CHILDREN) {
        const child = schema[key] as object | undefined;
        if (child && !this.byChild.has(child)) this.byChild.set(child, name);
      }
    }
  }

  /** The schema as the document shows it; named schemas (at any depth) become references. */
  json(schema: TSchema): Json {
    return this.convert(schema);
  }

  /** Gives a schema a name here (one the routes use that shared/schema/ does not export, e.g. an error envelope of one type). */
  name(schema: TSchema, name: string): Json {
    if (this.exported.has(name)) throw new Error(`schema name ${name} is already an export of shared/schema/`);
    this.write(name, schema);
    return ref(name);
  }

  /** `components.schemas`, by name. */
  schemas(): Record<string, Json> {
    return Object.fromEntries([...this.written].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** A named schema, or TypeBox's optional copy of one (same children, plus the optional marker). */
  private nameOf(schema: TSchema): string | undefined {
    const name = this.names.get(schema);
    if (name !== undefined || !(OptionalKind in schema)) return name;
    for (const key of SHAPE_CHILDREN) {
      const child = schema[key] as object | undefined;
      if (child && this.byChild.has(child)) return this.byChild.get(child);
    }
    return undefined;
  }

  private convert(value: unknown, self?: unknown): Json {
    if (Array.isArray(value)) return value.map((item) => this.convert(item));
    if (value === null || typeof value !== 'object') return value as Json;
    if (Kind in value && value !== self) {
      const name = this.nameOf(value as TSchema);
      if (name !== undefined) {
        this.write(name, value as TSchema);
        return ref(name);
      }
    }
    // Own string keys only: TypeBox's markers (Kind, OptionalKind) are symbols and stay behind.
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) out[key] = this.convert(item);
    return out;
  }

  private write(name: string, schema: TSchema): void {
    if (this.written.has(name)) return;
    // Claimed before it is converted, so a schema that reaches itself ends in a reference.
    this.written.set(name, null);
    this.written.set(name, this.convert(schema, schema));
  }
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
