import { describe, expect, it } from 'vitest';
import { SdkLoadError, interopDefault, loadWithRetry } from './sdk-load';

function flaky<T>(failures: number, value: T) {
  let calls = 0;
  const load = async (): Promise<T> => {
    calls += 1;
    if (calls <= failures) throw new Error(`chunk fetch failed #${calls}`);
    return value;
  };
  return { load, calls: () => calls };
}

describe('loadWithRetry [§8 script-loading failures retry up to 3 times]', () => {
  it('loads at once without waiting', async () => {
    const pauses: number[] = [];
    const sdk = flaky(0, 'sdk');
    await expect(loadWithRetry(sdk.load, 3, { delay: async (ms) => { pauses.push(ms); } })).resolves.toBe('sdk');
    expect(sdk.calls()).toBe(1);
    expect(pauses).toEqual([]);
  });

  it('fails twice, then loads on the third attempt with a growing pause', async () => {
    const pauses: number[] = [];
    const sdk = flaky(2, 'sdk');
    await expect(loadWithRetry(sdk.load, 3, { delay: async (ms) => { pauses.push(ms); } })).resolves.toBe('sdk');
    expect(sdk.calls()).toBe(3);
    expect(pauses).toEqual([300, 600]);
  });

  it('fails three times: exactly 3 attempts, then one clear error carrying the last failure', async () => {
    const pauses: number[] = [];
    const sdk = flaky(10, 'sdk');
    const error = await loadWithRetry(sdk.load, 3, { delay: async (ms) => { pauses.push(ms); } }).catch((e: unknown) => e);
    expect(sdk.calls()).toBe(3);
    expect(pauses).toEqual([300, 600]);
    expect(error).toBeInstanceOf(SdkLoadError);
    expect((error as SdkLoadError).attempts).toBe(3);
    expect((error as SdkLoadError).message).toBe('The SDK could not be loaded after 3 attempts: chunk fetch failed #3');
    expect((error as SdkLoadError).cause).toBeInstanceOf(Error);
  });

  it('defaults to 3 attempts and a real timer', async () => {
    const sdk = flaky(10, 'sdk');
    await expect(loadWithRetry(sdk.load, undefined, { backoffMs: 1 })).rejects.toBeInstanceOf(SdkLoadError);
    expect(sdk.calls()).toBe(3);
  });
});

describe('interopDefault', () => {
  class Sdk {}
  const isSdk = (v: unknown) => v === Sdk;

  it('takes the export as it is, or unwraps one or two module wrappers', () => {
    expect(interopDefault(Sdk, isSdk)).toBe(Sdk);
    expect(interopDefault({ default: Sdk } as unknown as typeof Sdk, isSdk)).toBe(Sdk);
    expect(interopDefault({ default: { default: Sdk } } as unknown as typeof Sdk, isSdk)).toBe(Sdk);
  });

  it('refuses a module without the export', () => {
    expect(() => interopDefault({ default: {} } as unknown as typeof Sdk, isSdk)).toThrow(/expected export/);
  });
});
