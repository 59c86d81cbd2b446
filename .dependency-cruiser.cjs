/**
 * Import cycles (issue 27, ARCHITECTURE.md "No import cycles anywhere (type-only imports count)"):
 * run by `npm run lint` over machines/, src/ and server/. dependency-cruiser reads TypeScript
 * before it is compiled (tsPreCompilationDeps), so an `import type` is a dependency like any other.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: a leaf (codes, ports, texts) never imports the module that uses it.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
