/**
 * The import boundaries of ARCHITECTURE.md are enforced by ESLint; this checks that the
 * rules really fire (and stay quiet on allowed imports).
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals')
    .map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['machines/x/x.machine.ts', "import { useState } from 'react';\nexport const a = useState;\n"],
    ['machines/x/x.machine.ts', "import ky from 'ky';\nexport const a = ky;\n"],
    ['machines/x/x.machine.ts', "import { config } from '../../src/app/config';\nexport const a = config;\n"],
    ['machines/x/x.machine.ts', "export const a = () => localStorage.getItem('x');\n"],
    ['machines/x/x.machine.ts', 'export const a = () => document.title;\n'],
    ['machines/x/x.machine.ts', "import { setup } from 'xstate';\nexport const a = setup;\n"],
    ['src/screens/x/X.tsx', "import { readStoredAuth } from '../../adapters/storage';\nexport const a = readStoredAuth;\n"],
    ['src/app/x.ts', "import AgoraRTC from 'agora-rtc-sdk-ng';\nexport const a = AgoraRTC;\n"],
    ['src/app/x.ts', "export const a = () => sessionStorage.clear();\n"],
  ])('%s: forbids %j', async (file, code) => {
    expect(await restricted(file, code)).not.toEqual([]);
  });

  it.each([
    ['machines/x/x.machine.ts', "import { assign } from 'xstate';\nimport { setup } from '../setup';\nimport type { A } from '../ports/a.port';\nexport const a: A | typeof setup | typeof assign = setup;\n"],
    ['src/adapters/x.ts', "export const a = () => localStorage.getItem('x');\n"],
    ['src/app/x.ts', "import { readStoredAuth } from '../adapters/storage';\nexport const a = readStoredAuth;\n"],
  ])('%s: allows %j', async (file, code) => {
    expect(await restricted(file, code)).toEqual([]);
  });
});
