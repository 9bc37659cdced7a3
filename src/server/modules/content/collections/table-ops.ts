/**
 * The table operations every content type shares (Drizzle only): its ids in public order, setting that
 * order in one statement, whether a key is taken, deleting, and the admin list's search/sort/page.
 */
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor, ListQuery } from '../types';

export interface TableSpec {
  table: PgTable;
  id: PgColumn;
  /** The public order column; undefined when the type is listed by date (articles). */
  order?: PgColumn | undefined;
  createdAt: PgColumn;
  /** Columns the admin list's search looks in. */
  search: readonly PgColumn[];
  /** Sort keys of the admin list → column. */
  sorts: Record<string, PgColumn>;
  /** Filter keys of the admin list → condition. */
  filters?: Record<string, SQL>;
  /** Another unique key in the public URL (articles: slug), checked by `isTaken` too. */
  urlKey?: PgColumn | undefined;
}

/** `%text%` for ILIKE, with the user's own % and _ taken literally. */
const containing = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function tableOps(spec: TableSpec) {
  const publicOrder = spec.order ? [asc(spec.order), asc(spec.createdAt), asc(spec.id)] : [desc(spec.createdAt), desc(spec.id)];

  return {
    async ids(ex: Executor): Promise<string[]> {
      const rows = await ex
        .select({ id: spec.id })
        .from(spec.table)
        .orderBy(...publicOrder);
      return rows.map((r) => String(r.id));
    },

    /** One UPDATE for the whole list: `order = position in ids`. */
    async setOrder(ex: Executor, ids: readonly string[]) {
      if (!spec.order || ids.length === 0) return;
      const cases = sql.join(
        ids.map((id, i) => sql`when ${id} then ${i}::integer`),
        sql` `,
      );
      await ex.execute(
        sql`update ${spec.table} set ${sql.identifier(spec.order.name)} = case ${spec.id} ${cases} end where ${inArray(spec.id, [...ids])}`,
      );
    },

    async isTaken(ex: Executor, value: string, exceptId?: string): Promise<boolean> {
      const match = spec.urlKey ? or(eq(spec.id, value), eq(spec.urlKey, value)) : eq(spec.id, value);
      const [row] = await ex
        .select({ n: count() })
        .from(spec.table)
        .where(exceptId === undefined ? match : and(match, ne(spec.id, exceptId)));
      return (row?.n ?? 0) > 0;
    },

    async remove(ex: Executor, id: string) {
      await ex.delete(spec.table).where(eq(spec.id, id));
    },

    /** The admin list page: search, filter, sort and the page's rows (as `columns` selects them). */
    async page<C extends Record<string, PgColumn>>(ex: Executor, query: ListQuery, columns: C) {
      const where = and(
        query.q ? or(...spec.search.map((c) => ilike(c, containing(query.q)))) : undefined,
        query.filter ? spec.filters?.[query.filter] : undefined,
      );
      const sortColumn = spec.sorts[query.sort];
      const orderBy = sortColumn ? [query.dir === 'desc' ? desc(sortColumn) : asc(sortColumn), asc(spec.id)] : publicOrder;
      const [rows, [total]] = await Promise.all([
        ex
          .select(columns as Record<string, PgColumn>)
          .from(spec.table)
          .where(where)
          .orderBy(...orderBy)
          .limit(query.perPage)
          .offset((query.page - 1) * query.perPage) as Promise<unknown[]>,
        ex.select({ n: count() }).from(spec.table).where(where),
      ]);
      return { rows: rows as { [K in keyof C]: C[K]['_']['data'] }[], total: total?.n ?? 0 };
    },
  };
}

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
