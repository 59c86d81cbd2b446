import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The app is served by the reference server (server/) on one origin; `npm start`
// builds it first. The manifest lets `npm run bench` tell the first screen's
// chunks from the lazy ones.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // The NetEase IM SDK is one large chunk, loaded only when the production adapters log in.
    chunkSizeWarningLimit: 1200,
  },
  test: {
    include: ['machines/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
  },
});
