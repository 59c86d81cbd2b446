/**
 * Builds the home bench page (tests/bench/home.html) in production mode into .tmp/bench-home,
 * with the app's own plugins and public folder; the app's build (dist/) is left alone.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import appConfig from '../../vite.config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  publicDir: here('../../public'),
  plugins: appConfig.plugins,
  logLevel: 'warn',
  build: {
    outDir: here('../../.tmp/bench-home'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rollupOptions: { input: { home: here('home.html') } },
  },
});
