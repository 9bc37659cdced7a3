/** The admin routes of the seed's route table (section 2), with one example user id. */
export const SEED_ADMIN_ROUTES = [
  '/admin/services',
  '/admin/content',
  '/admin/packages',
  '/admin/faqs',
  '/admin/articles',
  '/admin/demos',
  '/admin/users',
  '/admin/users/some-id',
  '/admin/chat-settings',
  '/admin/seo',
  '/admin/landing-page-config',
  '/admin/audit',
] as const;
