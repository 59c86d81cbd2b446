/**
 * Set up for every test file (vite.config.ts `test.setupFiles`): in a file with a page (jsdom),
 * each test ends with one task more, so what an unmount left to React's scheduler runs while
 * the page is still there. Under load it could otherwise run after the file's page was torn
 * down ('window is not defined'), an unhandled error that fails the whole run.
 */
import { afterEach } from 'vitest';

afterEach(async () => {
  if (typeof window === 'undefined') return;
  await new Promise((resolve) => { setTimeout(resolve, 0); });
});
