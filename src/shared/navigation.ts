/** The navbar menus of seed section 2: admins see the admin menu, everyone else the public links. */
export interface NavLink {
  href: string;
  label: string;
}

export const PUBLIC_NAV_LINKS: readonly NavLink[] = [
  { href: '/services', label: 'Services' },
  { href: '/packages', label: 'Packages' },
  { href: '/free-audit', label: 'Free Audit' },
  { href: '/articles', label: 'Articles' },
  { href: '/demos', label: 'Demos' },
  { href: '/#faqs', label: 'FAQ' },
];

export const ADMIN_NAV_LINKS: readonly NavLink[] = [
  { href: '/admin/content', label: 'Content' },
  { href: '/admin/users', label: 'Users' },
  // The seed's route, named for what an owner opens it for: the inbox (its settings are a tab of it; decision 031).
  { href: '/admin/chat-settings', label: 'Chat' },
  { href: '/admin/seo', label: 'SEO' },
  { href: '/admin/landing-page-config', label: 'Landing Page' },
  { href: '/admin/audit', label: 'Audit' },
];
