/**
 * The table operations every content type shares (Drizzle only): reading, inserting and updating a row,
 * its ids in public order, setting that order in one statement, whether a key is taken, deleting, and the
 * admin list's search/sort/page.
 */
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor, ListQuery, Snapshot } from '../types';

export interface TableSpec<T extends PgTable = PgTable> {
  table: T;
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

/** The stored dates a restored record (an undone delete) keeps. */
type Dates = { createdAt: string; updatedAt: string };

export function tableOps<T extends PgTable>(spec: TableSpec<T>) {
  // Drizzle's query builders take a plain table; T only types the rows `row` returns.
  const table: PgTable = spec.table;
  const publicOrder = spec.order ? [asc(spec.order), asc(spec.createdAt), asc(spec.id)] : [desc(spec.createdAt), desc(spec.id)];

  return {
    /** One row by id, as stored. */
    async row(ex: Executor, id: string): Promise<T['$inferSelect'] | undefined> {
      const [row] = await ex.select().from(table).where(eq(spec.id, id)).limit(1);
      return row as T['$inferSelect'] | undefined;
    },

    /** A new row at `order` (types listed by date have no order); a restored record keeps its dates. */
    async insertRow(ex: Executor, id: string, values: Record<string, unknown>, order: number, restore?: Dates) {
      await ex.insert(table).values({
        id,
        ...values,
        ...(spec.order ? { order } : {}),
        ...(restore ? { createdAt: new Date(restore.createdAt), updatedAt: new Date(restore.updatedAt) } : {}),
      } as never);
    },

    /** New values (and a new id, when renamed) for a row; its change time is now. */
    async updateRow(ex: Executor, id: string, values: Record<string, unknown>, newId?: string) {
      await ex
        .update(table)
        .set({ ...values, ...(newId ? { id: newId } : {}), updatedAt: new Date() } as never)
        .where(eq(spec.id, id));
    },

    async ids(ex: Executor): Promise<string[]> {
      const rows = await ex
        .select({ id: spec.id })
        .from(table)
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
        .from(table)
        .where(exceptId === undefined ? match : and(match, ne(spec.id, exceptId)));
      return (row?.n ?? 0) > 0;
    },

    async remove(ex: Executor, id: string) {
      await ex.delete(spec.table).where(eq(spec.id, id));
    },

    /**
     * A collection's storage when its editable fields are its columns (every type but packages, whose
     * included services live in their own table): read as `toSnapshot` shapes it, write, order, delete.
     */
    storage(toSnapshot: (row: T['$inferSelect']) => Snapshot) {
      return {
        read: async (ex: Executor, id: string) => {
          const row = await this.row(ex, id);
          return row && toSnapshot(row);
        },
        insert: (ex: Executor, id: string, f: Record<string, unknown>, order: number, restore?: Dates) => this.insertRow(ex, id, f, order, restore),
        update: (ex: Executor, id: string, f: Record<string, unknown>, newId?: string) => this.updateRow(ex, id, f, newId),
        remove: this.remove,
        ids: this.ids,
        setOrder: this.setOrder,
        isTaken: this.isTaken,
      };
    },

    /** The admin list page: search, filter, sort and the page's rows (as `columns` selects them). */
    async page<C extends Record<string, PgColumn | SQL>>(ex: Executor, query: ListQuery, columns: C) {
      const where = and(
        query.q ? or(...spec.search.map((c) => ilike(c, containing(query.q)))) : undefined,
        query.filter ? spec.filters?.[query.filter] : undefined,
      );
      const sortColumn = spec.sorts[query.sort];
      const orderBy = sortColumn ? [query.dir === 'desc' ? desc(sortColumn) : asc(sortColumn), asc(spec.id)] : publicOrder;
      const [rows, [total]] = await Promise.all([
        ex
          .select(columns as Record<string, PgColumn | SQL>)
          .from(table)
          .where(where)
          .orderBy(...orderBy)
          .limit(query.perPage)
          .offset((query.page - 1) * query.perPage) as Promise<unknown[]>,
        ex.select({ n: count() }).from(table).where(where),
      ]);
      return { rows: rows as { [K in keyof C]: C[K] extends PgColumn ? C[K]['_']['data'] : C[K] extends SQL<infer T> ? T : never }[], total: total?.n ?? 0 };
    },
  };
}

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
