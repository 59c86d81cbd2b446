/**
 * The app build that the end-to-end tests serve, said once for its two makers: Playwright's
 * webServer step (playwright.config.ts) and `npm test` (scripts/test.mjs), which builds it beside
 * the typecheck and lint (one core each) and then names the folder it built in E2E_PREBUILT, so
 * the webServer step only starts the server.
 */

/** Where the build goes: `dist`, or a folder of its own for a run on another port (E2E_PORT). */
export function e2eDistDir(env = process.env) {
  return env.E2E_DIST_DIR ?? (env.E2E_PORT ? `.tmp/dist-${Number(env.E2E_PORT)}` : 'dist');
}

/**
 * What the build is made with (Vite reads VITE_* as it builds): the inspector (VITE_INSPECTOR=1),
 * which inspector.spec checks, and the development-only settings of the address (VITE_TEST_HOOKS=1,
 * src/app/devSettings.ts: a presence that gives up in seconds).
 */
export const E2E_BUILD_ENV = { VITE_INSPECTOR: '1', VITE_TEST_HOOKS: '1' };

/** The shell command that builds into `outDir`. */
export function e2eBuildCommand(outDir) {
  return `npx vite build --logLevel warn --outDir ${outDir} --emptyOutDir`;
}
