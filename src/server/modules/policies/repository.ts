/** The saved policy documents (app_config 'page:privacy' / 'page:terms'): Drizzle only, inside the caller's transaction. */
import { eq } from 'drizzle-orm';
import { appConfig } from '../../db/schema';
import type { Executor } from '../content/types';
import type { PolicyKind } from '../../../shared/policies';
import { policyConfigKey } from '../pages/service';

export interface PolicyRow {
  /** The saved document ({ html, updatedAt } when written here; an import may have written anything). */
  value: unknown;
  /** When the row was last written: the version an editor opened. */
  updatedAt: Date;
}

/** The saved row, locked until the transaction ends, so two saves of the same policy run one after the other. */
export async function lockPolicyRow(tx: Executor, kind: PolicyKind): Promise<PolicyRow | undefined> {
  const [row] = await tx
    .select({ value: appConfig.value, updatedAt: appConfig.updatedAt })
    .from(appConfig)
    .where(eq(appConfig.key, policyConfigKey(kind)))
    .for('update');
  return row;
}

/** Any app_config document, read inside the caller's transaction (the site texts the default text names). */
export async function readConfigValue(tx: Executor, key: string): Promise<unknown> {
  const [row] = await tx.select({ value: appConfig.value }).from(appConfig).where(eq(appConfig.key, key));
  return row?.value;
}

export async function readPolicyRow(tx: Executor, kind: PolicyKind): Promise<PolicyRow | undefined> {
  const [row] = await tx.select({ value: appConfig.value, updatedAt: appConfig.updatedAt }).from(appConfig).where(eq(appConfig.key, policyConfigKey(kind)));
  return row;
}

/** Inserts or replaces the document; false when another transaction created the row first. */
export async function writePolicyRow(tx: Executor, kind: PolicyKind, value: { html: string; updatedAt: string }, at: Date, exists: boolean): Promise<boolean> {
  const key = policyConfigKey(kind);
  if (exists) {
    await tx.update(appConfig).set({ value, updatedAt: at }).where(eq(appConfig.key, key));
    return true;
  }
  const inserted = await tx.insert(appConfig).values({ key, value, updatedAt: at }).onConflictDoNothing().returning({ key: appConfig.key });
  return inserted.length === 1;
}

export async function deletePolicyRow(tx: Executor, kind: PolicyKind): Promise<void> {
  await tx.delete(appConfig).where(eq(appConfig.key, policyConfigKey(kind)));
}
