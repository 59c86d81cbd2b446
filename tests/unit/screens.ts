/**
 * Set up for the screens' test files (the `app` project in vite.config.ts): Testing Library's
 * `findBy…`/`waitFor` wait up to 5 s, not 1 s. A screen behind a lazy route is imported, and
 * transformed by Vite, the first time a test opens it; on a loaded two-core machine that took
 * over a second (the login screen of RootLayout.test.tsx, in a full `npm test`).
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
