/**
 * Default privacy policy and terms of service, shown until an admin saves their own (app_config 'page:privacy' and
 * 'page:terms'). They describe what this site really does: accounts, audit requests, chat, first-party page
 * counts without cookies for visitors, member page-time records. Names and the contact address come from the
 * editable site content, so a fresh install reads correctly for its owner.
 */

export type PolicyKind = 'privacy' | 'terms';

/** The activity log's entity type of a policy change (its entity id is the kind). */
export const POLICY_ENTITY_TYPE = 'policy';

export const POLICY_TITLES: Record<PolicyKind, string> = {
  privacy: 'Privacy Policy',
  terms: 'Terms of Service',
};

/** The date the default texts were written; a saved policy carries its own. */
export const DEFAULT_POLICIES_UPDATED_AT = new Date('2025-06-01T00:00:00Z');

export interface PolicyContext {
  siteName: string;
  legalName: string;
  contactEmail: string;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function names(ctx: PolicyContext) {
  const site = esc(ctx.siteName);
  const legal = esc(ctx.legalName || ctx.siteName);
  const email = esc(ctx.contactEmail);
  return { site, legal, mail: `<a href="mailto:${email}">${email}</a>` };
}

export function defaultPrivacyHtml(ctx: PolicyContext): string {
  const { site, legal, mail } = names(ctx);
  return `<p>This policy explains what personal information ${legal} (“${site}”, “we”, “us”) collects through this website, why we collect it, how long we keep it and the choices you have. We collect only what we need to answer your enquiries, run member accounts and keep the site secure. We do not sell personal information.</p>

<h2>What we collect</h2>
<h3>When you simply visit</h3>
<p>We count page views ourselves, without cookies and without third-party analytics. For each view we record the page address, the host name of the site that linked to it (for example “google.com”) and the day. These counts are not linked to you and contain no personal information.</p>
<p>Our servers also keep short technical logs (IP address, browser type, the page requested and the time) to protect the site against abuse, such as repeated failed sign-in attempts.</p>

<h3>When you create an account</h3>
<ul>
<li>Your first and last name, email address and password. The password is stored only as a secure one-way hash; we cannot read it.</li>
<li>Optionally your phone number and website, if you choose to give them.</li>
<li>The page you came from when you signed up, whether you have verified your email address, and your account role.</li>
<li>A session cookie that keeps you signed in. It is strictly necessary for the account to work and is not used for advertising.</li>
<li>While you are signed in, the pages you view and how long you spend on them, so we can understand which information is useful to our members.</li>
</ul>

<h3>When you request a free audit</h3>
<p>Your name, email address, business name and type, your goals, and optionally your website, phone number and a message, together with your consent to be contacted. We use this to prepare your audit and to contact you about it.</p>

<h3>When you use the chat</h3>
<p>The messages you send and the answers you receive, and your name and email address if you choose to leave them so we can follow up. An identifier is kept in your browser so that you can continue the same conversation later. If the assistant uses an AI model to write answers, your messages are sent to that model’s provider to produce the reply and are not used by us for any other purpose.</p>

<h3>Email</h3>
<p>We send the emails needed to run your account (verification, password reset) and to answer your requests. We do not send marketing email unless you have asked for it, and every such message lets you unsubscribe.</p>

<h2>Why we use it</h2>
<ul>
<li><strong>To provide what you ask for</strong>: your account, member prices, your audit and replies to your questions (performance of a contract or steps you request before one).</li>
<li><strong>To keep the site secure and working</strong>: preventing abuse, fixing problems (our legitimate interests).</li>
<li><strong>To improve the site</strong>: understanding which pages help visitors, using counts rather than profiles (our legitimate interests).</li>
<li><strong>To contact you</strong> about your audit or enquiry, with your consent, which you can withdraw at any time.</li>
</ul>

<h2>Who we share it with</h2>
<p>We use a small number of service providers who process data on our behalf under contract: our hosting provider, our email delivery provider, the scheduling service you use if you book a call through it, and, where enabled, the AI model provider behind the chat assistant. They may use the data only to provide their service to us. We disclose information to authorities only where the law requires it.</p>

<h2>How long we keep it</h2>
<ul>
<li>Account data: for as long as your account exists, and up to 30 days after you ask us to delete it.</li>
<li>Audit requests and chat conversations: up to 24 months after our last contact with you, unless you become a client, in which case our client agreement applies.</li>
<li>Member page-time records: up to 12 months.</li>
<li>Server logs: up to 30 days.</li>
<li>Anonymous page-view counts contain no personal information and may be kept as long as they are useful.</li>
</ul>

<h2>Your rights</h2>
<p>You can ask us to give you a copy of your personal information, correct it, delete it, restrict or object to how we use it, or transfer it to you or another provider. Where we rely on your consent you can withdraw it at any time. You can update your name, phone number and website yourself in your dashboard. To exercise any other right, email ${mail}; we reply within 30 days. If you are unhappy with our answer you may complain to your local data protection authority.</p>

<h2>Security</h2>
<p>We protect your information with encrypted connections, hashed passwords, access limited to the people who need it and regular updates. No system is perfectly secure, but we take care to keep the data we hold to a minimum.</p>

<h2>Children</h2>
<p>This website is meant for businesses and is not directed at children under 16. We do not knowingly collect their personal information.</p>

<h2>Changes to this policy</h2>
<p>When we change this policy we update the date at the top of this page. If a change is significant, we will tell members by email before it takes effect.</p>

<h2>Contact</h2>
<p>Questions about this policy or your data: ${mail}.</p>`;
}

export function defaultTermsHtml(ctx: PolicyContext): string {
  const { site, legal, mail } = names(ctx);
  return `<p>These terms govern your use of this website, operated by ${legal} (“${site}”, “we”, “us”). By using the site or creating an account you agree to them. If you do not agree, please do not use the site.</p>

<h2>What this website is for</h2>
<p>The site describes our business-automation services, packages and demonstrations, publishes articles, and lets you request a free audit, chat with us and book a call. Information on the site is general and is not an offer capable of acceptance. Any paid work is governed by a separate written proposal or agreement, which takes precedence over these terms.</p>

<h2>Your account</h2>
<ul>
<li>You must give accurate information, keep your password confidential and tell us promptly at ${mail} if you think someone else has used your account.</li>
<li>You must verify your email address to use member features.</li>
<li>You are responsible for activity under your account. We may suspend or close an account that breaks these terms or puts the site or other users at risk.</li>
<li>You can ask us to close your account at any time.</li>
</ul>

<h2>Prices</h2>
<p>Prices shown to members are indicative and exclude taxes unless stated. The final price, scope and timeline of any work are confirmed in writing before work starts.</p>

<h2>Free audit</h2>
<p>The free online-presence audit is offered without obligation. It is based on publicly available information and what you tell us, and it is an opinion, not a guarantee of results. We may decline or limit audit requests at our discretion.</p>

<h2>Booking a call</h2>
<p>Calls are booked through a third-party scheduling service, whose own terms and privacy policy apply to your booking.</p>

<h2>Acceptable use</h2>
<p>You agree not to:</p>
<ul>
<li>break the law or anyone’s rights through the site;</li>
<li>send spam, malware or misleading information through our forms or chat;</li>
<li>try to gain unauthorised access to the site, other accounts or our systems, or test their security without our written permission;</li>
<li>overload the site with automated requests, or scrape it other than as ordinary search engines do;</li>
<li>copy or republish our content except as these terms allow.</li>
</ul>

<h2>Our content</h2>
<p>The text, images, designs and demonstrations on this site belong to us or our licensors. You may view and share links to them and print or save pages for your own reference. Any other use needs our written permission.</p>

<h2>What you send us</h2>
<p>You keep ownership of what you submit through our forms and chat. You allow us to use it to respond to you and provide our services, as described in our <a href="/privacy">privacy policy</a>. Please do not send confidential information, such as patient or client records, through the website.</p>

<h2>Chat assistant</h2>
<p>The chat may be answered automatically. Automated answers are drawn from the content of this site and may be incomplete or out of date; they are not professional advice and do not bind us. Ask for a person if you need a definite answer.</p>

<h2>Links to other sites</h2>
<p>We link to other websites, such as our scheduling service and social media pages. We are not responsible for their content or practices.</p>

<h2>Availability and changes</h2>
<p>We aim to keep the site available and accurate but cannot promise that it will always be uninterrupted, error-free or up to date. We may change, suspend or withdraw any part of it.</p>

<h2>Liability</h2>
<p>The site is provided “as is”. To the extent the law allows, we are not liable for any indirect or consequential loss, or for loss of profit, revenue, data or business opportunity, arising from your use of the site. Nothing in these terms limits liability that cannot be limited by law, including liability for fraud or for death or personal injury caused by negligence.</p>

<h2>Changes to these terms</h2>
<p>We may update these terms from time to time. The date at the top of this page shows when they last changed. Continuing to use the site after a change means you accept the updated terms.</p>

<h2>Law</h2>
<p>These terms are governed by the laws of the country in which ${legal} is registered, and its courts have jurisdiction, without affecting any mandatory rights you have as a consumer where you live.</p>

<h2>Contact</h2>
<p>Questions about these terms: ${mail}.</p>`;
}

export function defaultPolicyHtml(kind: PolicyKind, ctx: PolicyContext): string {
  return kind === 'privacy' ? defaultPrivacyHtml(ctx) : defaultTermsHtml(ctx);
}
