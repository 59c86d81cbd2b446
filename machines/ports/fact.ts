/**
 * A port's event as a machine takes it (ARCHITECTURE.md: facts from outside are flat events
 * named `source.pastTense`, not envelopes): the same fields, its type prefixed with the source,
 * so `{ type: 'firstRemoteFrame' }` of the RTC port is `{ type: 'rtc.firstRemoteFrame' }`.
 */
export type FactOf<S extends string, E extends { type: string }> = E extends unknown
  ? { [K in keyof E]: K extends 'type' ? `${S}.${E['type']}` : E[K] }
  : never;

/** `event` as the fact of `source` (see FactOf). */
export const factOf = <S extends string, E extends { type: string }>(source: S, event: E): FactOf<S, E> =>
  ({ ...event, type: `${source}.${event.type}` }) as FactOf<S, E>;
