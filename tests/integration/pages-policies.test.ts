import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { logger } from '../../src/server/logger';
import { getPolicy, policyConfigKey } from '../../src/server/modules/pages/service';
import { writeConfigDocument } from '../../src/server/modules/site/repository';
import { DEFAULT_POLICIES_UPDATED_AT } from '../../src/shared/policies';
import { resolveSiteContent } from '../../src/shared/site-content';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await handle.close();
});

const site = resolveSiteContent({ siteName: 'Acme <Automation>', footer: { contactEmail: 'privacy@acme.test' } });

describe('policy pages', () => {
  it('uses the built-in privacy policy when nothing is stored, naming the site and its contact address', async () => {
    const policy = await getPolicy('privacy', site);
    expect(policy.isDefault).toBe(true);
    expect(policy.updatedAt).toEqual(DEFAULT_POLICIES_UPDATED_AT);
    expect(policy.html).toContain('mailto:privacy@acme.test');
    // Site texts are escaped into the default HTML.
    expect(policy.html).toContain('Acme &lt;Automation&gt;');
    expect(policy.html).not.toContain('<Automation>');
    for (const topic of ['account', 'audit', 'chat', 'without cookies', 'How long we keep it', 'Your rights']) {
      expect(policy.html).toContain(topic);
    }
  });

  it('uses the built-in terms of use when nothing is stored', async () => {
    const policy = await getPolicy('terms', site);
    expect(policy.isDefault).toBe(true);
    expect(policy.html).toContain('Acceptable use');
    expect(policy.html).toContain('href="/privacy"');
  });

  it('shows the stored HTML and its date', async () => {
    await writeConfigDocument(policyConfigKey('terms'), { html: '<p>Our own terms.</p>', updatedAt: '2025-03-04T10:00:00.000Z' });
    const policy = await getPolicy('terms', site);
    expect(policy).toEqual({ html: '<p>Our own terms.</p>', updatedAt: new Date('2025-03-04T10:00:00.000Z'), isDefault: false });
    // The other policy is unaffected.
    expect((await getPolicy('privacy', site)).isDefault).toBe(true);
  });

  it('falls back to the default for a blank or malformed stored document', async () => {
    await writeConfigDocument(policyConfigKey('privacy'), { html: '   ' });
    expect((await getPolicy('privacy', site)).isDefault).toBe(true);
    await writeConfigDocument(policyConfigKey('privacy'), 'not a document');
    expect((await getPolicy('privacy', site)).isDefault).toBe(true);
  });

  it('logs a failed read and still renders the default', async () => {
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined as never);
    await db().execute(sql`DROP TABLE app_config`);
    const policy = await getPolicy('privacy', site);
    expect(policy.isDefault).toBe(true);
    expect(logged).toHaveBeenCalledOnce();
  });
});
