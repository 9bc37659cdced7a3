/**
 * What a Firebase project becomes on this site, decided before anything is written: the content checked
 * against the database it will go into, members joined with their Auth accounts, page views with their
 * members. Any problem anywhere means no plan (all or nothing); notes are what the owner should know.
 * The dry run prints this; `--apply` writes it (write-import.ts).
 */
import type { FirebaseHashConfig } from '../../auth/firebase-password';
import type { Database } from '../../db/client';
import { readExistingRefs } from '../content-transfer/repository';
import { erasedAmong } from '../leads/erase-repository';
import { erasedKey } from '../leads/erased';
import { firebaseHashConfig } from '../firebase-auth/hash-config';
import { firestoreToBundle } from './map-documents';
import { mergeMembers, type ImportNote } from './members';
import { CONFIG_COLLECTIONS, type FirebaseProject } from './read-firebase';
import type { ImportProblem } from './source';
import { joinExistingAccounts, type ImportPlan } from './write-import';

export interface ImportCounts {
  services: number;
  demos: number;
  packages: number;
  articles: number;
  faqs: number;
  landingPageConfig: boolean;
  members: number;
  admins: number;
  withPassword: number;
  disabled: number;
  /** Firebase members whose email already has an account here (joined, not written). */
  joined: number;
  pageViews: number;
}

export type PlanResult =
  | { ok: true; plan: ImportPlan; counts: ImportCounts; notes: ImportNote[] }
  | { ok: false; problems: ImportProblem[]; notes: ImportNote[] };

const HASH_CONFIG_HELP =
  'pass --auth-hash-config with the project\'s password hash parameters (Firebase console → Authentication → Users → ⋮ → Password hash parameters)';

export async function planFirebaseImport(
  database: Database,
  project: FirebaseProject,
  options: { projectId: string; hashConfig?: FirebaseHashConfig | undefined; now?: Date },
): Promise<PlanResult> {
  const now = options.now ?? new Date();
  const notes: ImportNote[] = [];
  const problems: ImportProblem[] = [];

  if (project.configCandidates.length > 1) {
    problems.push({ collection: 'config', id: '', field: '', message: `several documents hold blockOrder (${project.configCandidates.join(', ')}): name one with --config-document` });
  } else if (!project.source.config) {
    notes.push({ collection: 'config', id: '', field: '', message: `no landing page config (no document with blockOrder in ${CONFIG_COLLECTIONS.join(', ')}): the site keeps its section order` });
  }

  const mapped = await firestoreToBundle(project.source, { existing: await readExistingRefs(database), now: now.getTime() });
  if (!mapped.ok) return { ok: false, problems: [...problems, ...mapped.problems], notes };

  const merged = mergeMembers(mapped.users, project.accounts, now);
  notes.push(...merged.notes);
  problems.push(...merged.problems);
  if (merged.withFirebasePassword > 0 && !options.hashConfig && !(await firebaseHashConfig(database))) {
    const n = merged.withFirebasePassword;
    problems.push({ collection: 'auth', id: '', field: '', message: `${n} account${n === 1 ? ' has a' : 's have'} Firebase password${n === 1 ? '' : 's'}: ${HASH_CONFIG_HELP}` });
  }
  if (problems.length > 0) return { ok: false, problems, notes };

  // A person erased here (on their request) is not brought back by an old export (decision 063).
  const erased = await erasedAmong(new Map(merged.members.map((m) => [erasedKey(m.email), m.email])), database);
  for (const m of merged.members.filter((member) => erased.has(member.email))) {
    notes.push({ collection: 'users', id: m.id, field: 'email', message: 'this person was erased from the site on request: not imported, nor their page views' });
  }
  const kept = merged.members.filter((m) => !erased.has(m.email));
  const erasedIds = new Set(merged.members.filter((m) => erased.has(m.email)).map((m) => m.id));
  const { members, joined, notes: joinNotes } = await joinExistingAccounts(database, kept);
  notes.push(...joinNotes);
  const pageTimes = mapped.pageTimes.filter((p) => !erasedIds.has(p.userId)).map((p) => (joined.has(p.userId) ? { ...p, userId: joined.get(p.userId)! } : p));
  const { bundle } = mapped;
  const counts: ImportCounts = {
    services: bundle.services?.length ?? 0,
    demos: bundle.demos?.length ?? 0,
    packages: bundle.packages?.length ?? 0,
    articles: bundle.articles?.length ?? 0,
    faqs: bundle.faqs?.length ?? 0,
    landingPageConfig: Boolean(bundle.landingPageConfig),
    members: members.length,
    admins: members.filter((m) => m.role === 'admin').length,
    withPassword: members.filter((m) => m.password !== undefined).length,
    disabled: members.filter((m) => m.disabled).length,
    joined: joined.size,
    pageViews: pageTimes.length,
  };
  return { ok: true, plan: { projectId: options.projectId, bundle, hashConfig: options.hashConfig, members, pageTimes }, counts, notes };
}
