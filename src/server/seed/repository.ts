import { db } from '../db';
import { articles, demos, faqs, packages, services } from '../db/schema';

/** True when any public content exists (someone imported or wrote content before the first seed). */
export async function hasAnyContent(): Promise<boolean> {
  const found = await Promise.all(
    [services, demos, packages, articles, faqs].map((table) => db().select({ id: table.id }).from(table).limit(1)),
  );
  return found.some((rows) => rows.length > 0);
}
