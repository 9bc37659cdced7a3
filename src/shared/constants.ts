/** Business constants from the seed spec, section 9. */
export const LANDING_PREVIEW_COUNT = 4;
export const ROTATION_INTERVAL_MS = 2000;
export const LOGIN_BANNER_MS = 2000;

export const SERVICE_TEXT_CUT = 120;
export const DEMO_TEXT_CUT = 120;
export const PACKAGE_TEXT_CUT = 150;
export const ARTICLE_EXCERPT_WORDS = 20;

export const SERVICE_BENEFITS_SHOWN = 4;
export const DEMO_SUITABLE_FOR_SHOWN = 2;
export const PACKAGE_SERVICES_SHOWN = 3;
export const PACKAGE_FEATURES_SHOWN = 2;
export const ARTICLE_TAGS_SHOWN = 3;

export const BEST_VALUE_MIN_SERVICES = 3;
export const BEST_VALUE_MIN_SETUP_PRICE = 1000;

export const SEO_TITLE_MAX = 60;
export const SEO_DESCRIPTION_MAX = 160;

export const FAQ_PANEL_MAX_HEIGHT_PX = 500;
export const MOBILE_BREAKPOINT_PX = 768;
/** The footer's copyright year until the owner sets another in the site texts (seed: 2025). */
export const COPYRIGHT_YEAR = 2025;

export const ARTICLES_PER_PAGE = 12;
export const PRICING_TIERS_PER_ROW = 3;

export const EMPTY_STATES = {
  services: 'Services coming soon',
  packages: 'Packages coming soon',
  demos: 'Demo builds coming soon',
  articles: 'No articles yet',
} as const;

export const PRICE_PROMPT = 'Sign up or log in to see prices';

/**
 * On <html>: the page as a visitor sees it, whoever is signed in (the landing page editor's live preview,
 * decision 034). The browser's session store then reads no session: no account menu, no member prices.
 */
export const VISITOR_VIEW_ATTRIBUTE = 'data-visitor-view';
