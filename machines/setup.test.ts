/**
 * The machines' setup (setup.ts): a machine is built on first use, a `.provide()` builds only
 * the provided machine, and what is handed out behaves as XState's machine (implementations
 * merged by name, `instanceof`, xstate/graph's paths).
 */
import { describe, expect, it } from 'vitest';
import { StateMachine, assign, createActor } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { mergeImplementations, setup } from './setup';

/** A machine whose state nodes count how often they are built (a node reads its `on` as it is built). */
function countedMachine() {
  const builds = { count: 0 };
  const node = (transitions: Record<string, string>, word: string) => ({
    entry: { type: 'say' as const, params: word },
    get on() {
      builds.count += 1;
      return transitions;
    },
  });
  const machine = setup({
    types: {} as { context: { said: string[] }; events: { type: 'go' } | { type: 'back' } },
    actions: { say: assign({ said: ({ context }, word: string) => [...context.said, `base:${word}`] }) },
    guards: { allowed: () => true },
  }).createMachine({
    id: 'counted',
    context: { said: [] },
    initial: 'idle',
    states: {
      idle: node({ go: 'busy' }, 'idle'),
      busy: node({ back: 'idle' }, 'busy'),
    },
  });
  return { machine, builds };
}

describe('machines built on use', () => {
  it('builds a machine when it is first used, once', () => {
    const { machine, builds } = countedMachine();
    expect(builds.count).toBe(0);
    const actor = createActor(machine).start();
    const afterStart = builds.count;
    expect(afterStart).toBeGreaterThan(0);
    actor.send({ type: 'go' });
    createActor(machine).start();
    expect(builds.count).toBe(afterStart);
    expect(actor.getSnapshot().value).toBe('busy');
  });

  it('builds only the provided machine for a .provide(), with its implementations by name over the others', () => {
    const { machine, builds } = countedMachine();
    const provided = machine.provide({
      actions: { say: assign({ said: ({ context }, word: string) => [...context.said, `provided:${word}`] }) },
    });
    expect(builds.count).toBe(0);
    const actor = createActor(provided).start();
    const oneBuild = builds.count;
    actor.send({ type: 'go' });
    expect(actor.getSnapshot().context.said).toEqual(['provided:idle', 'provided:busy']);
    // The base machine was never built: starting it now builds it (as many nodes again).
    expect(createActor(machine).start().getSnapshot().context.said).toEqual(['base:idle']);
    expect(builds.count).toBe(oneBuild * 2);
  });

  it('is an XState machine to whoever asks: instanceof, its id and nodes, xstate/graph paths', () => {
    const { machine } = countedMachine();
    expect(machine).toBeInstanceOf(StateMachine);
    expect(machine.id).toBe('counted');
    expect(Object.keys(machine.root.states)).toEqual(['idle', 'busy']);
    expect('transition' in machine).toBe(true);
    const paths = getShortestPaths(machine, { serializeState: (snapshot) => JSON.stringify(snapshot.value) });
    expect(paths.map((path) => path.state.value).sort()).toEqual(['busy', 'idle']);
  });

  it('merges implementations as StateMachine.provide does: each map by name', () => {
    const a = () => undefined;
    const b = () => undefined;
    const c = () => undefined;
    expect(mergeImplementations({ actions: { a, b }, guards: { g: a } }, { actions: { b: c }, delays: { d: 5 } })).toEqual({
      actions: { a, b: c }, guards: { g: a }, actors: {}, delays: { d: 5 },
    });
  });

  it("extend's machines are built on use too", () => {
    const builds = { count: 0 };
    const machine = setup({ actions: { one: () => undefined } }).extend({ actions: { two: () => undefined } }).createMachine({
      initial: 'only',
      states: { only: { get on() { builds.count += 1; return {}; }, entry: ['one', 'two'] } },
    });
    expect(builds.count).toBe(0);
    expect(createActor(machine).start().getSnapshot().value).toBe('only');
    expect(builds.count).toBeGreaterThan(0);
  });
});
