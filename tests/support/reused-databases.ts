/**
 * Test databases reused within a test file (issue 37). Opening a PGlite copy of the migrated template costs
 * more than half a second of a core (the WebAssembly heap, the 40 MB data folder, PostgreSQL's start); a
 * PostgreSQL copy (CREATE DATABASE … TEMPLATE, then DROP) about a third; and most test files open one per
 * test. A database a test is done with is put back to the template's state
 * instead: each table the test wrote to emptied and the template's own rows (what the migrations insert)
 * written back, sequences set as they were, the session's settings reset. That takes a few milliseconds. A database
 * whose schema a test changed (a restore, a dropped table) is closed rather than reused.
 */
import type { DatabaseHandle } from '../../src/server/db/client';

/** The two engines' clients, as far as this module needs them. */
interface Client {
  query<T>(text: string): Promise<{ rows: T[] }>;
  /** Runs several statements in one round trip. */
  exec(text: string): Promise<unknown>;
  readonly closed: boolean;
}

function clientOf(handle: DatabaseHandle): Client {
  if (handle.pglite) return handle.pglite;
  const pool = handle.postgres!.pool;
  return {
    query: async <T,>(text: string) => (await pool.query(text)) as unknown as { rows: T[] },
    exec: (text) => pool.query(text),
    get closed() {
      return pool.ended || pool.ending;
    },
  };
}

interface Table {
  name: string;
  /** Its rows in the template (what the migrations insert), as they go back in; undefined when it had none. */
  restore: string | undefined;
  rows: number;
}

interface Template {
  /** The schema as a fingerprint: a database whose fingerprint differs is not reused. */
  fingerprint: string;
  tables: Table[];
  /** Sets every sequence as it was in the template. */
  sequences: string;
}

/** Everything that makes the schema: tables, columns, indexes, constraints, triggers, functions, types. */
const FINGERPRINT = `
  select md5(string_agg(item, ',' order by item)) as fingerprint from (
    select 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text as item from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%'
    union all select 'a:' || a.attrelid::regclass || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull::text
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where a.attnum > 0 and not a.attisdropped and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%'
    union all select 'k:' || conrelid::regclass || '.' || conname from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname not in ('pg_catalog', 'information_schema')
    union all select 't:' || tgrelid::regclass || '.' || tgname || ':' || tgenabled::text from pg_trigger where not tgisinternal
    union all select 'f:' || p.oid::regprocedure::text || ':' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname not in ('pg_catalog', 'information_schema')
    union all select 'y:' || t.oid::regtype::text from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%'
  ) items`;

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Reads the template's tables, rows and sequences once. */
async function describeTemplate(client: Client): Promise<Template> {
  const [{ fingerprint }] = (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows as [{ fingerprint: string }];
  const names = (
    await client.query<{ name: string; columns: string | null }>(`
      select format('%I.%I', t.schemaname, t.tablename) as name,
        (select string_agg(format('%I', column_name), ', ' order by ordinal_position) from information_schema.columns col
          where col.table_schema = t.schemaname and col.table_name = t.tablename and col.is_generated = 'NEVER') as columns
      from pg_tables t where t.schemaname not in ('pg_catalog', 'information_schema') order by 1`)
  ).rows;
  const tables: Table[] = [];
  for (const { name, columns } of names) {
    const [{ rows, count }] = (await client.query<{ rows: string | null; count: number }>(`select json_agg(t)::text as rows, count(*)::int as count from ${name} t`)).rows as [
      { rows: string | null; count: number },
    ];
    const restore = rows && columns ? `insert into ${name} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${name}, ${quoteLiteral(rows)})` : undefined;
    tables.push({ name, restore, rows: count });
  }
  const sequences: string[] = [];
  for (const { name } of (await client.query<{ name: string }>(`select format('%I.%I', schemaname, sequencename) as name from pg_sequences`)).rows) {
    const [state] = (await client.query<{ last_value: string; is_called: boolean }>(`select last_value, is_called from ${name}`)).rows;
    sequences.push(`setval(${quoteLiteral(name)}, ${state!.last_value}, ${state!.is_called})`);
  }
  return { fingerprint, tables, sequences: sequences.length > 0 ? `select ${sequences.join(', ')};` : '' };
}

/**
 * The first transaction id after the template's rows (or the last reset's): a row written since has an
 * xmin at least this, and a table with a row deleted has fewer rows than the template.
 */
const cleanSince = new WeakMap<DatabaseHandle, string>();

async function markClean(handle: DatabaseHandle): Promise<void> {
  const [row] = (await clientOf(handle).query<{ xid: string }>('select txid_current()::text as xid')).rows;
  cleanSince.set(handle, row!.xid);
}

/** The tables a test wrote to (or deleted from), found in one query. */
async function changedTables(handle: DatabaseHandle, tables: readonly Table[]): Promise<Table[]> {
  const since = cleanSince.get(handle)!;
  const probes = tables.map(
    (table, i) => `select ${i} as i where exists (select 1 from ${table.name} where xmin::text::bigint >= ${since}) or (select count(*) from ${table.name}) <> ${table.rows}`,
  );
  const found = (await clientOf(handle).query<{ i: number }>(probes.join(' union all '))).rows;
  return found.map(({ i }) => tables[i]!);
}

let template: Promise<Template> | undefined;
const idle: DatabaseHandle[] = [];
const open = new Set<DatabaseHandle>();

/** Puts a database back to the template's state; false when it cannot be (its schema changed, it was closed). */
async function putBack(handle: DatabaseHandle): Promise<boolean> {
  const client = clientOf(handle);
  if (client.closed) return false;
  try {
    const { fingerprint, tables, sequences } = await template!;
    const [now] = (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows;
    if (now?.fingerprint !== fingerprint) return false;
    const changed = await changedTables(handle, tables);
    // Triggers and foreign keys stay quiet while the tables are emptied and the template's rows go back in.
    const statements = changed.flatMap((table) => [`delete from ${table.name};`, table.restore ? `${table.restore};` : '']);
    await client.exec(`reset all; begin; set local session_replication_role = replica; ${statements.join(' ')} ${sequences} commit;`);
    await markClean(handle);
    return true;
  } catch {
    return false;
  }
}

/**
 * A database in the migrated template's state: one the file used before when it has one idle, else a new
 * copy from `openCopy`. Its close() puts it back for the next test (or closes it when it cannot be reused).
 */
export async function reusedDatabase(openCopy: () => Promise<DatabaseHandle>): Promise<DatabaseHandle> {
  let base = idle.pop();
  if (!base) {
    base = await openCopy();
    open.add(base);
    template ??= describeTemplate(clientOf(base));
    await template;
    await markClean(base);
  }
  const reused = base;
  let released = false;
  // Once the test closes it, its handle refuses new queries as a closed database does: late work of one
  // test (a timer, a request still running) must not write into the next test's database.
  const db = new Proxy(reused.db, {
    get(target, property) {
      if (released) throw new Error('This test database was closed.');
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    ...reused,
    db,
    ping: async () => {
      if (released) throw new Error('This test database was closed.');
      await reused.ping();
    },
    close: async () => {
      if (released) return;
      released = true;
      if (await putBack(reused)) idle.push(reused);
      else {
        open.delete(reused);
        await reused.close();
      }
    },
  };
}

/** Closes every database this file opened (setup.ts runs it after the file's tests). */
export async function closeReusedDatabases(): Promise<void> {
  idle.length = 0;
  const all = [...open];
  open.clear();
  await Promise.all(all.map((handle) => handle.close().catch(() => {})));
}
