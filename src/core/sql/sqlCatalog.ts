/** What the SQL editor knows of the organization's tables: names and typed columns, looked up without case. */

export interface CatalogColumn {
  name: string;
  type: string;
}

export interface CatalogTable {
  name: string;
  columns: readonly CatalogColumn[];
}

/** Tables by lower-case name. */
export class SqlCatalog {
  private readonly byName = new Map<string, CatalogTable>();

  constructor(tables: readonly CatalogTable[] = []) {
    for (const table of tables) this.byName.set(table.name.toLowerCase(), table);
  }

  get tables(): IterableIterator<CatalogTable> {
    return this.byName.values();
  }

  get size(): number {
    return this.byName.size;
  }

  table(name: string): CatalogTable | undefined {
    return this.byName.get(name.toLowerCase());
  }
}

/** `Nullable(LowCardinality(String))` → `String`: the kind of a type, for icons and hover. */
export function baseTypeName(type: string): string {
  let t = type.trim();
  for (;;) {
    const m = /^(Nullable|LowCardinality)\((.*)\)$/.exec(t);
    if (!m) return t;
    t = m[2]!.trim();
  }
}

export type TypeKind = 'number' | 'text' | 'time' | 'boolean' | 'structure' | 'other';

/** The kind of a ClickHouse type: numbers, text, dates and times, booleans, arrays/maps/tuples/JSON. */
export function typeKind(type: string | null | undefined): TypeKind {
  const base = baseTypeName(type ?? '');
  if (/^(U?Int\d*|Float\d*|Decimal.*|BFloat16)$/i.test(base)) return 'number';
  if (/^(String|FixedString.*|UUID|Enum.*|IPv[46])$/i.test(base)) return 'text';
  if (/^(Date|Date32|DateTime.*|Time.*)$/i.test(base)) return 'time';
  if (/^Bool(ean)?$/i.test(base)) return 'boolean';
  if (/^(Array|Map|Tuple|Nested|JSON|Object|Variant|Dynamic).*$/i.test(base)) return 'structure';
  return 'other';
}
