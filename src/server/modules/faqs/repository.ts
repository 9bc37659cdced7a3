import { asc } from 'drizzle-orm';
import { db } from '../../db';
import { faqs } from '../../db/schema';

export async function listFaqs() {
  return db().select().from(faqs).orderBy(asc(faqs.order), asc(faqs.createdAt));
}
