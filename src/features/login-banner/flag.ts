/** The sessionStorage key the login form sets so the next page shows the banner. Dependency-free: it ships on every page. */
export const LOGIN_BANNER_FLAG = 'loginBanner';
