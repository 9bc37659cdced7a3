/** The Firebase importer's report: what was read, what would be (or was) imported, the notes. */
import { plural } from '../../../shared/plural';
import type { PlanResult } from './plan-import';
import type { FirebaseProject } from './read-firebase';
import { formatImportProblem } from './source';
import type { WriteResult } from './write-import';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function describeImportReport(project: FirebaseProject, result: PlanResult, elapsedMs: number): string {
  const { source, accounts } = project;
  const pageViews = Object.values(source.pageViews).reduce((n, docs) => n + docs.length, 0);
  const lines = [
    `Read and checked in ${seconds(elapsedMs)}: ${plural(source.services.length, 'service')}, ${plural(source.demos.length, 'demo')}, ${plural(source.packages.length, 'package')}, ` +
      `${plural(source.articles.length, 'article')}, ${plural(source.faqs.length, 'FAQ')}, ${plural(source.users.length, 'member profile')}, ` +
      `${plural(pageViews, 'page view')}, ${plural(accounts.length, 'Auth account')}; landing page config: ${project.configFrom}.`,
  ];
  if (result.ok) {
    const c = result.counts;
    lines.push(
      '',
      'To import:',
      `  content: ${plural(c.services, 'service')}, ${plural(c.demos, 'demo')}, ${plural(c.packages, 'package')}, ${plural(c.articles, 'article')}, ${plural(c.faqs, 'FAQ')}` +
        (c.landingPageConfig ? ', the landing page layout' : ''),
      `  members: ${c.members.toLocaleString('en-US')} (${plural(c.admins, 'admin')}, ${c.withPassword.toLocaleString('en-US')} with their Firebase password, ${c.disabled.toLocaleString('en-US')} disabled)` +
        (c.joined > 0 ? `; ${c.joined} joined to an account already on this site` : ''),
      `  page views: ${c.pageViews.toLocaleString('en-US')}`,
    );
  }
  if (result.notes.length > 0) {
    lines.push('', `${plural(result.notes.length, 'note')} (not blocking):`, ...result.notes.map((n) => `  ${formatImportProblem(n)}`));
  }
  return lines.join('\n');
}

export function describeWriteResult(w: WriteResult): string {
  const resumed = w.resumedBatches > 0 ? ` (resumed: ${w.resumedBatches.toLocaleString('en-US')} of ${w.batches.toLocaleString('en-US')} batches were written by the interrupted run)` : '';
  return `Imported ${plural(w.members, 'member')}, ${plural(w.pageTimes, 'page view')} and the content${resumed}. Members sign in with their Firebase email and password.`;
}
