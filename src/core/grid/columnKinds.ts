/** How the grid treats a column: sorting, alignment and the type shown under its name. */

/** Numbers sort by value, dates by time, everything else as text. */
export type ColumnKind = 'number' | 'date' | 'text';

/** A column as the grid shows it. */
export interface GridColumn {
  name: string;
  /** The service's type name (e.g. `Nullable(Int64)`), or '' when the service sent none. */
  type: string;
  kind: ColumnKind;
}

// Wrappers that do not change how values compare (ClickHouse type names).
const WRAPPER = /^(?:Nullable|LowCardinality)\((.*)\)$/s;
const NUMBER = /^(?:U?Int(?:8|16|32|64|128|256)|Float(?:32|64)|BFloat16|Decimal(?:32|64|128|256)?(?:\(.*\))?)$/;
const DATE = /^(?:Date|Date32|DateTime|DateTime64)(?:\(.*\))?$/;

/** The kind of a column from its service type name, looking inside `Nullable(...)` and `LowCardinality(...)`. */
export function columnKind(type: string | null | undefined): ColumnKind {
  let inner = (type ?? '').trim();
  for (let match = WRAPPER.exec(inner); match; match = WRAPPER.exec(inner)) inner = (match[1] ?? '').trim();
  if (NUMBER.test(inner)) return 'number';
  if (DATE.test(inner)) return 'date';
  return 'text';
}

/** The columns of a result: names with their types (types may be missing or shorter than the names). */
export function gridColumns(names: readonly string[], types: readonly string[] | null | undefined): GridColumn[] {
  return names.map((name, i) => {
    const type = types?.[i] ?? '';
    return { name, type, kind: columnKind(type) };
  });
}
