import { defineConfig } from 'vitest/config';
import type { Plugin, Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
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
/** index.html's entry: it reads the open parameters and imports MAIN once the page has painted. */
const BOOT = fileURLToPath(new URL('./src/boot.ts', import.meta.url));
/**
 * What src/main.tsx imports dynamically before the first render, each run in a task of its own:
 * the cipher (the browser's, src/api/webCodec.ts) and the machines. index.html preloads them with the app's chunk.
 */
const CODEC = fileURLToPath(new URL('./src/api/webCodec.ts', import.meta.url));
const MACHINES = fileURLToPath(new URL('./machines/app/app.actors.ts', import.meta.url));
const START_MODULES = [CODEC, MACHINES];
const EARLY = fileURLToPath(new URL('./src/app/askEarly.ts', import.meta.url));
/** The API contract (src/api/contract/*): schema declarations only, without side effects. */
const CONTRACT = /\/src\/api\/contract\//;
/**
 * A chunk group of what `root` imports statically, transitively (and `root` itself with
 * `withRoot`), less the contract's modules: a chunk gets the contract's declarations it uses, so
 * the first screens do not carry the schemas only lazy screens read.
 */
function closureGroup(name: string, root: string, { withRoot = false } = {}) {
  const closures = new WeakMap<object, Set<string>>();
  return (id: string, ctx: Rolldown.ChunkingContext): string | null => {
    const info = ctx.getModuleInfo(root);
    if (!info || CONTRACT.test(id)) return null;
    let modules = closures.get(info);
    if (!modules) {
      modules = staticImports(ctx, info);
      if (withRoot) modules.add(info.id);
      closures.set(info, modules);
    }
    return modules.has(id) ? name : null;
  };
}

/** What a module imports statically, transitively. */
function staticImports(ctx: Rolldown.ChunkingContext, root: Rolldown.ModuleInfo): Set<string> {
  const modules = new Set<string>();
  const stack = [...root.importedIds];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (modules.has(next)) continue;
    modules.add(next);
    stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
  }
  return modules;
}

/**
 * index.html's entry (src/boot.ts) imports the app (src/main.tsx) once the shell is painted;
 * the app's code and stylesheet are fetched with the page all the same: this puts a
 * modulepreload for the app's chunk, the start's own imports (START_MODULES) and their static
 * imports, and the app's stylesheet, in index.html.
 */
function preloadApp(): Plugin {
  return {
    name: 'preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        // Only the app's page: pages built with these plugins for the benches load no app.
        if (!bundle || !ctx.filename.endsWith(`${sep}index.html`)) return [];
        const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
        const main = chunks.find((chunk) => chunk.facadeModuleId === MAIN);
        if (!main) throw new Error('preload-app: no chunk for src/main.tsx');
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (chunk: Rolldown.OutputChunk) => {
          if (files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const sheet of (chunk as { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []) css.add(sheet);
          for (const name of chunk.imports) {
            const dep = bundle[name];
            if (dep?.type === 'chunk') visit(dep);
          }
        };
        visit(main);
        for (const module of START_MODULES) {
          const chunk = chunks.find((c) => c.moduleIds.includes(module));
          if (!chunk) throw new Error(`preload-app: no chunk for ${module}`);
          visit(chunk);
        }
        const missing = (file: string) => !html.includes(`/${file}"`);
        return [
          ...[...css].filter(missing).map((href) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `/${href}` }, injectTo: 'head' as const })),
          // Low priority: the app's code must not hold up the stylesheet that the first paint waits for.
          ...[...files].filter(missing).map((href) => ({
            tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, fetchpriority: 'low', href: `/${href}` }, injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}

// The app is served by the reference server (server/) on one origin; `npm start`
// builds it first. The manifest lets `npm run bench` tell the first screen's
// chunks from the lazy ones.
export default defineConfig({
  plugins: [react(), precompress(), preloadApp()],
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
      output: {
        codeSplitting: {
          groups: [
            // What the entry imports (the open parameters' reader, Vite's helper for dynamic
            // imports): a chunk under 2 KiB gzip. Were they in the app's chunk, the entry would
            // import that chunk statically and run all of the app's code before the page could
            // paint, which is what the entry is there to prevent.
            { name: closureGroup('boot', BOOT), debugName: 'boot', priority: 3 },
            // What the entry imports to send the start's first requests (src/app/askEarly.ts), the
            // browser's cipher among it (the app imports it from here): a few KiB gzip, so the
            // requests go before the app's chunk is in, not after it.
            { name: closureGroup('early', EARLY, { withRoot: true }), debugName: 'early requests', priority: 2 },
            // What src/main.tsx imports statically: what every first screen loads before anything
            // renders. Left to itself rolldown spreads it over a handful of small shared chunks (each
            // shared with some lazy chunk), and small files compress poorly; as one chunk, which the
            // lazy chunks import from, the same code is 3.5 KiB less gzip.
            { name: closureGroup('app', MAIN), debugName: 'first screen', priority: 1 },
            // The machines the start imports (MACHINES), for the same reason.
            { name: closureGroup('machines', MACHINES, { withRoot: true }), debugName: 'machines', priority: 0 },
          ],
        },
      },
    },
  },
  test: {
    environment: 'node',
    setupFiles: ['tests/unit/settle.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one file at a time on CI's two.
    maxWorkers: 2,
    projects: [
      // Machine and server tests keep no state between files (each makes its own actors, fake
      // ports, servers and databases), so a worker runs file after file without loading every
      // module again; the screens' files (jsdom, React, module-level caches) each get their own.
      { extends: true, test: { name: 'machines', include: ['machines/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'server', include: ['server/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'app', include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.ts'], setupFiles: ['tests/unit/screens.ts'] } },
    ],
  },
});
