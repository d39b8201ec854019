/**
 * Table names, as both the client (checking while the user types) and the sandbox (answering 400)
 * read them. The live service documents 1–128 characters and rejects bad names with a bare array of
 * messages; which characters it allows it does not say. Our decision: what an unquoted identifier of
 * its warehouse (ClickHouse) may hold — ASCII letters, digits and `_`, not starting with a digit — so a
 * name is usable in SQL as is, without quotes.
 */

export const TABLE_NAME_MAX = 128;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Why a table name cannot be used, as one sentence; undefined when it is fine. */
export function tableNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'A table name needs at least 1 character.';
  if (name.length > TABLE_NAME_MAX) return `A table name has at most ${TABLE_NAME_MAX} characters (this one has ${name.length}).`;
  if (/^[0-9]/.test(name)) return 'A table name cannot start with a digit.';
  if (!NAME.test(name)) {
    const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9_]/.test(c)))].slice(0, 5);
    const shown = bad.map((c) => (c === ' ' ? 'space' : `“${c}”`)).join(', ');
    return `A table name may hold only letters (A–Z, a–z), digits and “_”; remove ${shown}.`;
  }
  return undefined;
}

/** A table name suggested for a file: its base name made into a valid name (`Sales 2025.csv` → `sales_2025`). */
export function suggestTableName(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '').toLowerCase();
  let name = base.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').replace(/_{2,}/g, '_');
  if (!name) name = 'table';
  if (/^[0-9]/.test(name)) name = `t_${name}`;
  return name.slice(0, TABLE_NAME_MAX);
}
