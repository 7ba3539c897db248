/**
 * Full-page navigations, kept in one module so that tests can replace them
 * (jsdom does not implement navigation).
 */
export const navigation = {
  /** Replaces the whole page with the given URL (e.g. after login). */
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Sends the browser to the given URL (e.g. /api/login, /api/logout). */
  go(url: string): void {
    window.location.href = url;
  },
  /** Changes the address bar without loading anything (the page stays as it is). */
  replaceUrl(path: string): void {
    window.history.replaceState(null, '', path);
  },
};
