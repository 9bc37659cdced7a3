/**
 * Calling Astro Actions over HTTP from a spec, as the islands do (`POST /_actions/<name>` with JSON), and
 * the admin's own reads used to check that nothing changed: the content file (the whole content, every
 * table the admin edits) and the activity log's size.
 */
import { expect, type APIRequestContext } from '@playwright/test';
import { parse } from 'devalue';

export interface ActionAnswer<T = unknown> {
  status: number;
  /** The Action's result (Astro sends it devalue-encoded). */
  data?: T;
  /** The error's JSON ({ type, code, message }) for a refusal or failure. */
  error?: { code?: string; message?: string };
}

export async function callAction<T = unknown>(request: APIRequestContext, baseURL: string, name: string, input: unknown): Promise<ActionAnswer<T>> {
  const res = await request.post(`/_actions/${name}`, { headers: { origin: baseURL }, data: input as object });
  const text = await res.text();
  const type = res.headers()['content-type'] ?? '';
  if (res.ok()) return { status: res.status(), data: (type.includes('devalue') ? parse(text) : text ? JSON.parse(text) : undefined) as T };
  let error: ActionAnswer['error'];
  try {
    error = JSON.parse(text) as ActionAnswer['error'];
  } catch {
    error = { message: text };
  }
  return { status: res.status(), error };
}

export interface ContentFile {
  format: string;
  exportedAt: string;
  [section: string]: unknown;
}

/** The whole content as the admin's export gives it, without the export's own time stamp. */
export async function contentSnapshot(admin: APIRequestContext): Promise<ContentFile> {
  const res = await admin.get('/api/admin/content/export');
  expect(res.status(), 'the admin can export the content').toBe(200);
  const file = (await res.json()) as ContentFile;
  return { ...file, exportedAt: '' };
}

/** How many entries the activity log holds (as the admin's activity page counts them). */
export async function activityCount(admin: APIRequestContext): Promise<number> {
  const html = await (await admin.get('/admin/activity')).text();
  if (html.includes('data-empty-state')) return 0;
  const count = /data-activity-count[^>]*>\s*(\d+)\s/.exec(html)?.[1];
  expect(count, 'the activity page shows its count').toBeDefined();
  return Number(count);
}
