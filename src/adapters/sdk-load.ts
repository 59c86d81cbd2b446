/**
 * Loading a cloud SDK's chunk (SPEC §8: "Script-loading failures retry up to 3 times").
 * The SDKs are only ever reached through a dynamic `import()` of a small `*.sdk.ts` module,
 * so they stay out of the first screen's chunk; a failed fetch of that chunk is retried
 * with a short growing pause, then reported with one clear error.
 */

export interface LoadRetryOptions {
  /** Pause before attempt n+1 is `backoffMs * n` (300 ms, 600 ms, …). */
  backoffMs?: number;
  /** Injectable for tests; defaults to a real timer. */
  delay?: (ms: number) => Promise<void>;
}

/** Every attempt failed; `cause` is the last failure. */
export class SdkLoadError extends Error {
  override name = 'SdkLoadError';
  constructor(readonly attempts: number, cause: unknown) {
    super(`The SDK could not be loaded after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${describe(cause)}`, { cause });
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function loadWithRetry<T>(load: () => Promise<T>, attempts = 3, options: LoadRetryOptions = {}): Promise<T> {
  const { backoffMs = 300, delay = sleep } = options;
  const tries = Math.max(1, Math.floor(attempts));
  let last: unknown;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      last = error;
      if (attempt < tries) await delay(backoffMs * attempt);
    }
  }
  throw new SdkLoadError(tries, last);
}

/**
 * The value a CommonJS/UMD SDK exports, whichever interop the bundler applied: `import X from`
 * may hand back the module object itself (`{ default: X }`) instead of `X`. `isExport` tells
 * the real export apart from that wrapper.
 */
export function interopDefault<T>(value: T, isExport: (candidate: unknown) => boolean): T {
  let current: unknown = value;
  for (let depth = 0; depth < 3 && !isExport(current); depth += 1) {
    if (current === null || (typeof current !== 'object' && typeof current !== 'function')) break;
    current = (current as { default?: unknown }).default;
  }
  if (!isExport(current)) throw new Error('The SDK module does not have the expected export.');
  return current as T;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
