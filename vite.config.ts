import { defineConfig } from 'vitest/config';
import type { Plugin, Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Writes a gzip and a Brotli copy beside every script, stylesheet and SVG of the build, which
 * the reference server sends to browsers that accept them (server/web/static.ts): on a phone's
 * network the first screen's JavaScript travels at a third of its size.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|svg)$/.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? Buffer.from(file.code) : Buffer.from(file.source);
        if (source.length < 1024) continue;
        writeFileSync(join(dir, `${file.fileName}.gz`), gzipSync(source, { level: 9 }));
        writeFileSync(join(dir, `${file.fileName}.br`), brotliCompressSync(source, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        }));
      }
    },
  };
}

const MAIN = fileURLToPath(new URL('./src/main.tsx', import.meta.url));
/** The API contract (src/api/contract/*): schema declarations only, without side effects. */
const CONTRACT = /\/src\/api\/contract\//;
const firstScreenModules = new WeakMap<object, Set<string>>();

/**
 * The modules src/main.tsx imports statically, transitively: what every first screen loads
 * before anything renders. Left to itself rolldown spreads them over the entry and a handful
 * of small shared chunks (each shared with some lazy chunk), and small files compress poorly;
 * as one chunk, which the lazy chunks import from, the same code is 3.5 KiB less gzip.
 * The contract's modules are left out: a chunk gets the declarations it uses, so the first
 * screens do not carry the schemas only lazy screens read.
 */
function firstScreenChunk(id: string, ctx: Rolldown.ChunkingContext): string | null {
  const main = ctx.getModuleInfo(MAIN);
  if (!main) return null;
  let modules = firstScreenModules.get(main);
  if (!modules) {
    modules = new Set();
    const stack = [...main.importedIds];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (modules.has(next)) continue;
      modules.add(next);
      stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
    firstScreenModules.set(main, modules);
  }
  return modules.has(id) && !CONTRACT.test(id) ? 'app' : null;
}

// The app is served by the reference server (server/) on one origin; `npm start`
// builds it first. The manifest lets `npm run bench` tell the first screen's
// chunks from the lazy ones.
export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // The NetEase IM SDK is one large chunk, loaded only when the production adapters log in.
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // The API contract only declares schemas (src/api/contract/*). Said so, a chunk gets
        // the declarations it uses, not every module the contract's index re-exports.
        moduleSideEffects: [{ test: CONTRACT, sideEffects: false }],
      },
      output: { codeSplitting: { groups: [{ name: firstScreenChunk, debugName: 'first screen' }] } },
    },
  },
  test: {
    include: ['machines/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    pool: 'forks',
  },
});
