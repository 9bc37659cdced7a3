/**
 * Enrolling in a follow-up sequence beyond its trigger (issue 35, decision 054), in Chromium, on the chat
 * lead's sequence: chat visitors who ticked "Email me follow-ups" while it was off are offered when the
 * admin turns it on (the switch says it takes effect on save); one is enrolled by hand from their page (the
 * visitor who did not tick it is not offered it, and says why), the rest from the editor after a
 * confirmation naming the count; the person page shows the next email filled in and when it goes, and the
 * email then sent is that one; the sequence's numbers move. axe at 390 and 1280 px, screenshots of both
 * screens. The sequence is put back as it was (turned off, it stops everyone it took).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from './support/fixtures';
import { callAction } from './support/admin-actions';
import { ADMIN_STATE, freshClientIp, gotoHydrated, mailsTo } from './support/accounts';

test.use({ storageState: ADMIN_STATE });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const base64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

/** At phone and desktop widths: the page and the part this spec is about (`part`), screenshotted; axe on the page. */
async function screenshotsAndAxe(page: Page, name: string, part: Locator) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    await part.screenshot({ path: test.info().outputPath(`${name}-${width}-part.png`) });
    // Nothing wider than the screen (a long address in an email must wrap).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    expect(violations.map((v) => `${width}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
}

/** A tile of the card's numbers, as a number. */
const numberOf = async (card: Locator, name: string) => Number((await card.locator(`[data-number="${name}"] dd`).first().innerText()).replace(/\D/g, ''));

test('turning the chat sequence on offers the people who agreed; one enrolled by hand, the rest after a confirmation; the next email previewed, then sent as shown', async ({ page, playwright, request, baseURL }) => {
  test.setTimeout(120_000);
  const id = unique();
  const [ida, jo, kim] = ['ida', 'jo', 'kim'].map((n) => `${n}-${id}@example.com`) as [string, string, string];

  // Three chat visitors while the sequence is off: Ida and Jo tick "Email me follow-ups", Kim does not.
  const visitor = await playwright.request.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  for (const [email, followUps] of [
    [ida, true],
    [jo, true],
    [kim, false],
  ] as const) {
    const visitorId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    const headers = { origin: baseURL!, 'x-chat-visitor': visitorId, 'x-real-ip': freshClientIp() };
    const name = email.split('-')[0]!.replace(/^./, (c) => c.toUpperCase());
    const res = await visitor.post('/api/chat/contact', { headers, data: { name: `${name} Tester`, email, followUps } });
    expect(res.status(), await res.text()).toBe(200);
  }
  await visitor.dispose();

  await gotoHydrated(page, '/admin/leads/sequences');
  const card = page.locator('#sequence-chat-lead');
  const form = card.locator('form[data-sequence="chat-lead"]');
  const before = { trigger: 'chat-lead', active: await form.getByRole('switch').isChecked(), steps: [] as { delayDays: number; subject: string; body: string }[] };
  for (const step of await form.locator('[data-sequence-step]').all()) {
    before.steps.push({ delayDays: Number(await step.getByLabel('Send on day').inputValue()), subject: await step.getByLabel('Subject').inputValue(), body: await step.getByLabel('Message').inputValue() });
  }
  const put = async (input: unknown) => expect((await callAction(request, baseURL!, 'admin.leads.saveSequence', input)).status).toBe(200);
  try {
    if (before.active) {
      await put({ ...before, active: false });
      await gotoHydrated(page, '/admin/leads/sequences');
    }
    const enrolledBefore = await numberOf(card, 'Enrolled');
    const sentBefore = await numberOf(card, 'Emails sent');
    // While off, the card says who it could take once on.
    await expect(card.locator('[data-waiting-while-off]')).toContainText('already agreed to these emails');

    // Two steps of this run's own: step 1 on day 2 (nobody gets mail during the run unless sent by hand).
    while ((await form.locator('[data-sequence-step]').count()) > 0) await form.getByRole('button', { name: /^Remove step/ }).first().click();
    for (const [i, step] of [
      { day: '2', subject: `Hi {{first_name}} (${id})`, body: 'Hi {{first_name}},\n\nThanks for the chat about <b>automation</b>.\n\n{{sender_name}}' },
      { day: '5', subject: `Last note (${id})`, body: 'Book a call: {{booking_link}}' },
    ].entries()) {
      await form.getByRole('button', { name: 'Add a step' }).click();
      const fields = form.locator(`[data-sequence-step="${i + 1}"]`);
      await fields.getByLabel('Send on day').fill(step.day);
      await fields.getByLabel('Subject').fill(step.subject);
      await fields.getByLabel('Message').fill(step.body);
    }
    // The switch says that it takes effect when saved.
    const toggle = form.getByRole('switch');
    await toggle.check();
    await expect(toggle).toHaveAccessibleDescription(/Starts sending when you save\./);
    await form.getByRole('button', { name: /^Save/ }).click();
    await expect(form.getByRole('status')).toHaveText('Saved: sending.');
    await expect(form.locator('[data-switch-pending]')).toHaveCount(0);

    // The offer, with how many agreed (Ida and Jo, and any other chat visitor who ticked the box).
    const offer = card.locator('[data-waiting-offer]');
    const waiting = Number(await offer.getAttribute('data-waiting-offer'));
    expect(waiting).toBeGreaterThanOrEqual(2);
    const group = offer.getByRole('group', { name: new RegExp(`^${waiting} people already agreed to these emails$`) });
    await expect(group).toContainText('step 1 goes out 2 days from now');
    await screenshotsAndAxe(page, 'sequence-offer', card);
    await group.getByRole('button', { name: 'Not now' }).click();
    await expect(group).toHaveCount(0);
    await expect(offer.getByRole('button', { name: `Enrol ${waiting} people…` })).toBeVisible();

    // Kim did not tick the box: the chat sequence is not offered on her page, and the server refuses it.
    await gotoHydrated(page, `/admin/leads/${base64url(kim)}`);
    const kimPanel = page.locator('[data-lead-sequences]');
    await expect(kimPanel.locator('[data-enrol]')).toContainText('No sequence can take them now.');
    await expect(kimPanel.locator('[data-enrol-refusal="chat-lead"]')).toHaveText('After a chat lead: No consent recorded: they did not tick “Email me follow-ups” on their latest chat contact form.');
    const refused = await callAction(request, baseURL!, 'admin.leads.enrolPerson', { email: kim, trigger: 'chat-lead' });
    expect(refused.status).toBe(409);
    expect(refused.error?.message).toBe('Not enrolled. No consent recorded: they did not tick “Email me follow-ups” on their latest chat contact form.');

    // Ida, by hand from her page.
    await gotoHydrated(page, `/admin/leads/${base64url(ida)}`);
    const panel = page.locator('[data-lead-sequences]');
    await expect(panel.locator('[data-no-sequences]')).toBeVisible();
    await expect(panel.getByLabel('Sequence', { exact: true })).toHaveValue('chat-lead');
    await panel.getByRole('button', { name: 'Enrol…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enrol them in “After a chat lead”?' });
    await dialog.getByRole('button', { name: 'Enrol' }).click();
    await expect(panel.locator('[data-sequence-status]')).toContainText('Enrolled in “After a chat lead”: step 1 goes out');
    const enrolment = panel.locator('[data-enrollment="active"]');
    await expect(enrolment).toContainText('Step 1 of 2 due');
    await expect(panel.locator('[data-enrol-refusal="chat-lead"]')).toContainText('They are already in this sequence');
    await expect(page.locator('[data-timeline-entry="lead-enrolled"]')).toContainText('Enrolled in “After a chat lead” by hand');
    // The next email as she will get it, and when it goes: nobody confirmed her address, so her name stays
    // out (decision 057), and the panel says why.
    const next = enrolment.locator('[data-next-mail]');
    const when = /\w{3}, \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/;
    await expect(enrolment.locator('[data-enrollment-status]')).toContainText(new RegExp(`^Step 1 of 2 due ${when.source}$`));
    await expect(next).toContainText(/^Step 1 as they will get it/);
    await expect(next.locator('[data-next-mail-subject]')).toHaveText(`Hi there (${id})`);
    await expect(next.locator('[data-unconfirmed-address]')).toHaveText(/^Their name and business stay out until they confirm this address/);
    await next.getByText('Show the email').click();
    const previewBody = await next.locator('[data-next-mail-body]').innerText();
    expect(previewBody).toMatch(/^Hi there,\n\nThanks for the chat about <b>automation<\/b>\.\n\n.+\n\n--\nYou get this email from .+ because you asked for follow-ups in our chat\. .*unsubscribe: http\S+\/unsubscribe\/[\w-]{43}$/s);
    await screenshotsAndAxe(page, 'person-next-email', panel);
    const again = await callAction(request, baseURL!, 'admin.leads.enrolPerson', { email: ida, trigger: 'chat-lead' });
    expect(again.status).toBe(409);
    expect(again.error?.message).toBe('Not enrolled. They are already in this sequence (a person goes through each sequence once).');

    // The rest from the editor, after a confirmation naming the count; the numbers move.
    await gotoHydrated(page, '/admin/leads/sequences');
    expect(await numberOf(card, 'Enrolled')).toBe(enrolledBefore + 1);
    const rest = waiting - 1;
    const people = rest === 1 ? '1 person' : `${rest} people`;
    await offer.getByRole('button', { name: `Enrol ${people}…` }).click();
    const confirm = page.getByRole('dialog', { name: `Enrol ${people}?` });
    await expect(confirm).toContainText(`${people} who agreed to these emails start “After a chat lead” now`);
    await confirm.getByRole('button', { name: `Enrol ${people}` }).click();
    await expect(card.locator('[data-enrol-status]')).toHaveText(new RegExp(`^Enrolled ${people}\\. Step 1 goes out from `));
    await expect(card.locator('[data-number="Enrolled"] dd').first()).toHaveText(String(enrolledBefore + waiting));
    await expect(card.locator('[data-number="Enrolled"]')).toContainText(/in progress/);
    await expect(offer.getByRole('group')).toHaveCount(0);
    await screenshotsAndAxe(page, 'sequence-enrolled', card);
    await gotoHydrated(page, `/admin/leads/${base64url(jo)}`);
    await expect(page.locator('[data-lead-sequences] [data-enrollment="active"]')).toContainText('Step 1 of 2 due');
    await expect(page.locator('[data-lead-sequences] [data-next-mail-subject]')).toHaveText(`Hi there (${id})`);

    // Ida's step 1 now: the email sent is the one previewed; her next one is step 2; "Emails sent" moves.
    await gotoHydrated(page, `/admin/leads/${base64url(ida)}`);
    await panel.getByRole('button', { name: 'Send step 1 now' }).click();
    await page.getByRole('dialog', { name: 'Send step 1 now?' }).getByRole('button', { name: 'Send now' }).click();
    await expect(panel.locator('[data-sequence-status]')).toContainText('Step 1 of “After a chat lead” sent');
    await expect.poll(() => mailsTo(ida).filter((m) => m.includes(`(${id})`)).length, { timeout: 20_000 }).toBe(1);
    const [mail] = mailsTo(ida).filter((m) => m.includes(`(${id})`));
    expect(mail).toMatch(new RegExp(`^Subject: Hi there \\(${id}\\)\\r?$`, 'm'));
    const unsubscribe = /unsubscribe: (http\S+)$/.exec(previewBody)![1]!;
    expect(mail).toMatch(new RegExp(`^List-Unsubscribe:\\s+<${unsubscribe.replace(/[.?/]/g, '\\$&')}>\\r?$`, 'm'));
    expect(mail).toContain('Thanks for the chat about &lt;b&gt;automation&lt;/b&gt;.');
    await expect(panel.locator('[data-next-mail-subject]')).toHaveText(`Last note (${id})`);
    await gotoHydrated(page, '/admin/leads/sequences');
    expect(await numberOf(card, 'Emails sent')).toBe(sentBefore + 1);
  } finally {
    await put(before);
  }
});
