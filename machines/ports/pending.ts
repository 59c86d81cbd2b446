/**
 * Manual-mode plumbing for fake ports: every call becomes a pending entry that the test
 * settles by hand, so states that wait on the outside world (`loadingProfile`,
 * `signingOut`) are observable instead of being skipped by a fake that answers at once.
 */
export interface PendingCall<T> {
  readonly method: string;
  readonly args: readonly unknown[];
  resolve(value: T): void;
  reject(error: unknown): void;
  readonly settled: boolean;
}

export class PendingCalls {
  private readonly queue: PendingCall<unknown>[] = [];

  add<T>(method: string, args: readonly unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const call: PendingCall<T> = {
        method,
        args,
        resolve: (v) => { settled = true; resolve(v); },
        reject: (e) => { settled = true; reject(e); },
        get settled() { return settled; },
      };
      this.queue.push(call as PendingCall<unknown>);
    });
  }

  /** The oldest unsettled call of `method`; throws when there is none, so a test cannot settle a call that was never made. */
  next<T>(method: string | readonly string[]): PendingCall<T> {
    const methods = typeof method === 'string' ? [method] : method;
    const call = this.queue.find((c) => methods.includes(c.method) && !c.settled);
    if (!call) {
      const open = this.open().map((c) => c.method).join(', ') || 'none';
      throw new Error(`No pending ${methods.join('|')}() call (pending: ${open}).`);
    }
    return call as PendingCall<T>;
  }

  /** The newest unsettled call of `method` (when a re-entered state superseded older ones). */
  latest<T>(method: string): PendingCall<T> {
    const call = this.open().filter((c) => c.method === method).at(-1);
    if (!call) throw new Error(`No pending ${method}() call.`);
    return call as PendingCall<T>;
  }

  open(): PendingCall<unknown>[] {
    return this.queue.filter((c) => !c.settled);
  }

  /** The arguments of every call of `method` so far, settled or not, in order. */
  argsOf(method: string): (readonly unknown[])[] {
    return this.queue.filter((c) => c.method === method).map((c) => c.args);
  }

  count(method: string): number {
    return this.queue.filter((c) => c.method === method).length;
  }
}
