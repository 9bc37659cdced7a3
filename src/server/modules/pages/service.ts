/**
 * The policy pages (/privacy, /terms): the HTML an admin saved under app_config 'page:privacy' / 'page:terms'
 * ({ html, updatedAt }, sanitized on save), or the built-in default when none is saved, it is blank or
 * unreadable. A failed read is logged only, so the policy pages always render.
 */
import { z } from 'astro/zod';
import { DEFAULT_POLICIES_UPDATED_AT, defaultPolicyHtml, type PolicyKind } from '../../../shared/policies';
import type { SiteContent } from '../../../shared/site-content';
import { logger } from '../../logger';
import { readConfigDocument } from '../site/repository';

export const policyConfigKey = (kind: PolicyKind) => `page:${kind}` as const;

const storedPolicySchema = z.object({
  html: z.string().refine((h) => h.trim() !== ''),
  updatedAt: z.coerce.date().optional(),
});

export interface PolicyDocument {
  html: string;
  updatedAt: Date;
  /** True when the built-in text is shown (nothing saved yet). */
  isDefault: boolean;
}

export type PolicySite = Pick<SiteContent, 'siteName' | 'business' | 'footer'>;

/** The built-in text, naming this site and its contact address. */
export function defaultPolicy(kind: PolicyKind, site: PolicySite): PolicyDocument {
  return {
    html: defaultPolicyHtml(kind, { siteName: site.siteName, legalName: site.business.legalName, contactEmail: site.footer.contactEmail }),
    updatedAt: DEFAULT_POLICIES_UPDATED_AT,
    isDefault: true,
  };
}

/** The policy a stored app_config document holds, or the default when it holds none (missing, blank, malformed). */
export function policyFromStored(kind: PolicyKind, stored: unknown, site: PolicySite): PolicyDocument {
  const parsed = storedPolicySchema.safeParse(stored);
  if (!parsed.success) return defaultPolicy(kind, site);
  const updatedAt = parsed.data.updatedAt && !Number.isNaN(parsed.data.updatedAt.getTime()) ? parsed.data.updatedAt : DEFAULT_POLICIES_UPDATED_AT;
  return { html: parsed.data.html, updatedAt, isDefault: false };
}

/** The stored document of a policy page as app_config holds it (rejects when the read fails). */
export const readStoredPolicy = (kind: PolicyKind): Promise<unknown> => readConfigDocument(policyConfigKey(kind));

/** `read`: where the stored document comes from (the public pages pass their memoized read). */
export async function getPolicy(kind: PolicyKind, site: PolicySite, read = readStoredPolicy): Promise<PolicyDocument> {
  try {
    return policyFromStored(kind, await read(kind), site);
  } catch (err) {
    logger.error({ err, kind }, 'policy page failed to load; using the built-in text');
    return defaultPolicy(kind, site);
  }
}
