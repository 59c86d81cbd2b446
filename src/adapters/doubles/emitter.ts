/**
 * The event half of the SDK doubles: `on`/`off` typed by the SDK's own listener maps
 * (e.g. `V2NIMLoginListener`, `RTMEvents.RTMClientEventMap`), and `emit` for the in-memory cloud.
 */
type Handler = (...args: never[]) => void;

export class DoubleEmitter<I extends { [K in keyof I]: unknown[] }> {
  private readonly handlers = new Map<keyof I, Set<Handler>>();

  on<T extends keyof I>(eventName: T, fn: (...args: I[T]) => void): this {
    let set = this.handlers.get(eventName);
    if (!set) {
      set = new Set();
      this.handlers.set(eventName, set);
    }
    set.add(fn as unknown as Handler);
    return this;
  }

  off<T extends keyof I>(eventName: T, fn?: (...args: I[T]) => void): this {
    if (fn) this.handlers.get(eventName)?.delete(fn as unknown as Handler);
    else this.handlers.delete(eventName);
    return this;
  }

  emit<T extends keyof I>(eventName: T, ...args: I[T]): void {
    for (const fn of [...(this.handlers.get(eventName) ?? [])]) (fn as unknown as (...a: I[T]) => void)(...args);
  }

  /** Listeners still attached (all events, or one). */
  listenerCount(eventName?: keyof I): number {
    if (eventName !== undefined) return this.handlers.get(eventName)?.size ?? 0;
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
}
