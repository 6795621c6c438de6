/** Multi-row INSERT statements that stay within D1's limit of 100 bound parameters per statement. */

export type SqlValue = string | number | null;

export interface Statement {
  sql: string;
  params: SqlValue[];
}

export const D1_MAX_PARAMS = 100;

/** INSERTs of `rows` into `table`, each with as many rows as fit in D1_MAX_PARAMS parameters. */
export function insertStatements<Row extends object>(
  table: string,
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
): Statement[] {
  const perStatement = Math.max(1, Math.floor(D1_MAX_PARAMS / columns.length));
  const tuple = `(${columns.map(() => "?").join(", ")})`;
  const head = `INSERT INTO ${table} (${columns.join(", ")}) VALUES `;
  const out: Statement[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const params: SqlValue[] = [];
    for (const row of chunk) {
      for (const c of columns) params.push(row[c] as SqlValue);
    }
    out.push({ sql: head + chunk.map(() => tuple).join(", "), params });
  }
  return out;
}

/** Splits statements into batches: each batch is one D1 `batch()` call, i.e. one transaction. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
