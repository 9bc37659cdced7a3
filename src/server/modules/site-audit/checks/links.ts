/** Broken links: the site's own links the crawler followed, and which of them lead nowhere. */
import type { CheckResult } from '../findings';
import type { CheckedLink } from '../snapshot';
import { limitLines, plural } from '../text';
import { linkNotFollowed, linkProblem, type AuditContext } from './context';
import { fail, pageCheck, pass, runCategory, skip, type CheckDefinition } from './define';

const brokenLinks = pageCheck({
  id: 'broken-links',
  title: 'No broken links',
  why: 'A link that leads to an error page loses the visitor at the very moment they wanted to know more, and tells Google the site is neglected.',
  fix: 'Point each listed link to a page that exists, or redirect the old address to its replacement (301); check again after changing menus or page addresses.',
  topic: 'website-care',
  judge(ctx) {
    const internal = ctx.snapshot.links.filter((link) => ctx.sameSite(link.url));
    if (internal.length === 0) return skip('No links of the site were checked in this audit');
    const line = (what: string, link: CheckedLink) => `${what} ${ctx.label(link.url)} (linked from ${ctx.label(link.pageUrl)})`;
    const broken = internal.flatMap((link) => {
      const problem = linkProblem(link);
      return problem ? [line(problem, link)] : [];
    });
    const notFollowed = internal.flatMap((link) => {
      const what = linkNotFollowed(link);
      return what ? [line(what, link)] : [];
    });
    const { links, linksSeen = 0 } = ctx.snapshot;
    const unchecked = [
      ...(notFollowed.length ? [`Not followed (may work for visitors): ${notFollowed.length} of ${plural(internal.length, 'link')}`, ...limitLines(notFollowed)] : []),
      ...(linksSeen > links.length ? [`${plural(linksSeen, 'link')} found on the pages read; the first ${links.length} were checked`] : []),
    ];
    if (broken.length === 0) {
      const answered = internal.length - notFollowed.length;
      return pass(notFollowed.length ? `No broken link: ${answered} of ${plural(internal.length, 'link')} checked answered` : internal.length === 1 ? 'The one link of the site checked answered' : `All ${internal.length} links of the site checked answered`, ...unchecked);
    }
    return fail(`Broken: ${broken.length} of ${plural(internal.length, 'link')} checked`, ...limitLines(broken), ...unchecked);
  },
});

export const LINKS_CHECKS: readonly CheckDefinition[] = [brokenLinks];

export function linksChecks(ctx: AuditContext): CheckResult[] {
  return runCategory('links', LINKS_CHECKS, ctx);
}
