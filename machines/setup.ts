/**
 * The machines' `setup`: XState's, whose `createMachine` builds the machine when it is first
 * used, and whose `.provide()` builds only the provided machine.
 *
 * XState builds a machine's whole tree of state nodes (every transition formatted, every
 * event listed) as `createMachine` runs, and again in every `.provide()`. Written so, each
 * machine is made as its module loads, and the root composes most of them with `.provide()`
 * (app.actors.ts, session.actors.ts): the start built each of them twice before the first
 * screen, once at import only to be thrown away. A signed-in start built 28 machines (14 at
 * import, 14 composing) before its root actor started. Built on use, each machine the start
 * runs is built once, and one it imports but never runs not at all.
 *
 * What it hands out behaves as the machine: every property is the built machine's (its
 * methods, `root`, `config`, `id`...), `instanceof StateMachine` holds (xstate/graph asks),
 * and a `.provide()` of it is built on use too, from the same config with the implementations
 * merged as XState's own `.provide()` merges them (action, guard, actor and delay maps, each
 * entry replaced by name).
 */
// eslint-disable-next-line no-restricted-imports -- the one place that takes XState's setup: it wraps it
import { StateMachine, createMachine, setup as xstateSetup } from 'xstate';
import type { AnyStateMachine } from 'xstate';

type Implementations = { [K in 'actions' | 'guards' | 'actors' | 'delays']?: Record<string, unknown> };
type Config = Parameters<typeof createMachine>[0];

/** The four maps of `a` with those of `b` over them, by name (what StateMachine.provide does). */
export function mergeImplementations(a: Implementations, b: Implementations): Implementations {
  return {
    actions: { ...a.actions, ...b.actions },
    guards: { ...a.guards, ...b.guards },
    actors: { ...a.actors, ...b.actors },
    delays: { ...a.delays, ...b.delays },
  };
}

/** The machine of `config` with `implementations`, built on first use; its `.provide()` likewise. */
export function machineOnUse(config: Config, implementations: Implementations): AnyStateMachine {
  let built: AnyStateMachine | undefined;
  const machine = (): AnyStateMachine => (built ??= createMachine(config, implementations as never) as AnyStateMachine);
  const provide = (more: Implementations) => machineOnUse(config, mergeImplementations(implementations, more));
  // The target is only there for `instanceof` and the proxy's invariants: everything is read from the built machine.
  return new Proxy(Object.create(StateMachine.prototype) as AnyStateMachine, {
    get: (_, key) => (key === 'provide' ? provide : Reflect.get(machine(), key)),
    set: (_, key, value) => Reflect.set(machine(), key, value),
    has: (_, key) => Reflect.has(machine(), key),
    ownKeys: () => Reflect.ownKeys(machine()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(machine(), key);
      // Reported as configurable: the target does not hold it (a proxy may not report a fixed property its target lacks).
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/** XState's `setup`, its `createMachine` (and `extend`'s) building on use. Same types as XState's. */
export const setup: typeof xstateSetup = ((options: Parameters<typeof xstateSetup>[0]) => {
  const base = xstateSetup(options);
  const { schemas, actors, actions, guards, delays } = options as { schemas?: unknown } & Implementations;
  return {
    ...base,
    createMachine: (config: Config) => machineOnUse({ ...config, schemas } as Config, { actors, actions, guards, delays }),
    extend: (extended: Implementations) => setup({
      ...options,
      actions: { ...(actions ?? {}), ...extended.actions },
      guards: { ...(guards ?? {}), ...extended.guards },
      delays: { ...(delays ?? {}), ...extended.delays },
    } as never),
  };
}) as never;
