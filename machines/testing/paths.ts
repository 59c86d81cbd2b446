/**
 * Model-based testing helpers shared by every machine's `<f>.paths.test.ts` (see
 * CONVENTIONS.md): a `TestModel` over the machine with stand-in events for async results
 * and timers, and a coverage record taken from the *running* actor's microsteps, so a
 * test can assert that the generated paths reached every state node and every
 * transition of the machine.
 */
import type {
  AnyEventObject, AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject, InspectionEvent,
} from 'xstate';
import { describe, expect, it } from 'vitest';
import { initialTransition } from 'xstate';
import { TestModel } from 'xstate/graph';
import type { PendingCalls } from '../ports/pending';

interface TransitionLike {
  source: AnyStateNode;
  eventType: string;
  target?: readonly AnyStateNode[] | undefined;
}

export function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    out.push(node);
    Object.values(node.states).forEach((child) => walk(child as AnyStateNode));
  };
  walk(machine.root);
  return out;
}

const keyOf = (t: TransitionLike, index: number): string =>
  `${t.source.id} --${t.eventType || 'always'}#${index}--> ${(t.target ?? []).map((n) => n.id).join(',') || '(self)'}`;

/** Every transition of the machine, eventless ones included, as stable keys. */
export function transitionKeysOf(machine: AnyStateMachine): string[] {
  const keys: string[] = [];
  for (const node of stateNodesOf(machine)) {
    for (const list of node.transitions.values()) list.forEach((t, i) => keys.push(keyOf(t, i)));
    (node.always ?? []).forEach((t, i) => keys.push(keyOf(t, i)));
  }
  return keys;
}

function keyOfTaken(t: TransitionLike): string {
  const list = t.eventType
    ? t.source.transitions.get(t.eventType) ?? []
    : t.source.always ?? [];
  return keyOf(t, list.indexOf(t as never));
}

/** Records what the running actors did, for the coverage assertion. */
export class Coverage {
  readonly transitions = new Set<string>();
  readonly stateNodes = new Set<string>();

  constructor(private readonly machine: AnyStateMachine) {}

  /** The machine under test, also when it was composed with `.provide()`. */
  private isOwn(event: InspectionEvent): boolean {
    // An actor's logic is not on the ActorRef type, but every actor has it.
    const ref: object = event.actorRef;
    const logic = 'logic' in ref ? ref.logic : undefined;
    return logic instanceof Object && 'root' in logic && 'id' in logic && logic.id === this.machine.id;
  }

  /** Pass as `inspect` to createActor. */
  readonly inspect = (event: InspectionEvent): void => {
    if (event.type === '@xstate.microstep' && this.isOwn(event)) {
      for (const t of event._transitions) {
        this.transitions.add(keyOfTaken(t as TransitionLike));
        // A transient state (only eventless exits) never shows in a snapshot; leaving it proves it was entered.
        this.stateNodes.add((t as TransitionLike).source.id);
      }
    }
    if (event.type === '@xstate.snapshot' && this.isOwn(event)) {
      const snapshot = event.snapshot as AnyMachineSnapshot;
      for (const node of snapshot._nodes) this.stateNodes.add(node.id);
    }
  };

  missingStateNodes(): string[] {
    return stateNodesOf(this.machine).map((n) => n.id).filter((id) => !this.stateNodes.has(id));
  }

  missingTransitions(): string[] {
    return transitionKeysOf(this.machine).filter((k) => !this.transitions.has(k));
  }
}

export interface PathModelOptions<TInput> {
  /** Sample events, including stand-ins (`xstate.done.actor.x`, `xstate.after.delay.id`). */
  events: readonly EventObject[];
  input?: TInput;
  /** What identifies a model state beyond its value (default: the value only). */
  serializeContext?: (context: unknown) => unknown;
  /**
   * Drops events that cannot happen in a state although the machine would take them,
   * e.g. a longer timer while a shorter one started at the same moment is still pending.
   */
  possible?: (snapshot: AnyMachineSnapshot, event: EventObject) => boolean;
}

export interface GeneratedPath {
  steps: { event: EventObject; state: AnyMachineSnapshot }[];
  state: AnyMachineSnapshot;
}

export function createPathModel<TInput>(machine: AnyStateMachine, options: PathModelOptions<TInput>) {
  const serializeState = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify([snapshot.value, options.serializeContext?.(snapshot.context) ?? null]);
  const model = new TestModel(machine, {
    // A machine that reached a top-level final state takes no more events.
    events: (snapshot: AnyMachineSnapshot) =>
      snapshot.status === 'active'
        ? options.events.filter((e) => snapshot.can(e) && (options.possible?.(snapshot, e) ?? true))
        : [],
    stateMatcher: (snapshot: AnyMachineSnapshot, key: string) => snapshot.matches(key as never),
    serializeState,
    ...(options.input === undefined ? {} : { input: options.input }),
  } as never);

  return {
    model,
    /**
     * A transition tour: for every state the model reaches and every event it can take
     * there, the shortest path to the state followed by that event. Unlike simple paths,
     * this also takes transitions back into states visited before.
     */
    transitionPaths(): GeneratedPath[] {
      const shortest = new Map<string, GeneratedPath>();
      const [initial] = initialTransition(machine, options.input as never);
      shortest.set(serializeState(initial as AnyMachineSnapshot), { steps: [], state: initial as AnyMachineSnapshot });
      // allowDuplicatePaths: otherwise a path that is the prefix of another is dropped, and so is its end state.
      for (const p of model.getShortestPaths({ allowDuplicatePaths: true } as never) as unknown as GeneratedPath[]) {
        shortest.set(serializeState(p.state), p);
      }
      const out: GeneratedPath[] = [];
      const adjacency = model.getAdjacencyMap() as unknown as Record<string, {
        transitions: Record<string, { event: EventObject; state: AnyMachineSnapshot }>;
      }>;
      for (const [key, { transitions }] of Object.entries(adjacency)) {
        const base = shortest.get(key);
        if (!base) continue;
        for (const { event, state } of Object.values(transitions)) {
          out.push({ steps: [...base.steps, { event, state }], state });
        }
      }
      return out;
    },
  };
}

/** The type of the delayed-transition event xstate raises for a named delay on a state node. */
export const afterEvent = (delay: string, stateNodeId: string): string => `xstate.after.${delay}.${stateNodeId}`;

/**
 * Lets settled promises deliver their results to the actor: every microtask queued so far (and
 * those they queue) runs before the next macrotask. setImmediate rather than setTimeout(0),
 * which Node clamps to 1 ms: a generated-path suite flushes tens of thousands of times, and
 * each of those milliseconds was spent waiting.
 */
export const flush = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });

/** A short, readable test name for a generated path. */
export function describePath(path: { steps: readonly { event: EventObject }[]; state: AnyMachineSnapshot }): string {
  const events = path.steps.map((s) => {
    const { type, ...rest } = s.event as EventObject & Record<string, unknown>;
    const detail = 'reason' in rest ? `(${String(rest.reason)})`
      : 'output' in rest && rest.output && typeof rest.output === 'object'
        ? `(${Object.values(rest.output as object).slice(0, 1).map(String).join('')})` : '';
    return type.replace(/^xstate\./, '') + detail;
  });
  return `${JSON.stringify(path.state.value)} via ${events.join(' → ')}`;
}

export type InspectFn = Coverage['inspect'];

export interface GeneratedPathSuite<TInput> extends Omit<PathModelOptions<TInput>, 'input'> {
  /** Named inputs, one model each; without them the machine starts with no input. */
  inputs?: Readonly<Record<string, TInput>>;
  /** The least number of paths each model must generate. */
  minPaths?: number;
  /** Replays one path on the real actor, created with `inspect` so coverage is recorded. */
  replay: (path: GeneratedPath, run: { input: TInput; inspect: InspectFn }) => Promise<void>;
}

/**
 * The generated-path suite of a machine: one test per transition-tour path for each input,
 * and the coverage test that the running actors reached every state node and transition.
 */
export function describeGeneratedPaths<TInput>(
  title: string,
  machine: AnyStateMachine,
  suite: GeneratedPathSuite<TInput>,
): void {
  const coverage = new Coverage(machine);
  describe(`${title}: generated paths`, () => {
    const inputs = suite.inputs ?? ({ 'no input': undefined } as unknown as Record<string, TInput>);
    for (const [name, input] of Object.entries(inputs)) {
      const paths = createPathModel(machine, { ...suite, input }).transitionPaths();
      describe(name, () => {
        it('generates paths', () => expect(paths.length).toBeGreaterThanOrEqual(suite.minPaths ?? 1));
        for (const path of paths) {
          it(describePath(path), () => suite.replay(path, { input, inspect: coverage.inspect }));
        }
      });
    }
    it('reaches every state node and every transition of the machine', () => {
      expect(coverage.missingStateNodes()).toEqual([]);
      expect(coverage.missingTransitions()).toEqual([]);
    });
  });
}

/**
 * Plays one step of a generated path on the running actor: an invoked child's stand-in
 * `xstate.done.actor.<id>` / `xstate.error.actor.<id>` settles that child's latest pending call
 * (its actor stands in as `pending.add('<id>', …)`), any other event is sent.
 */
export function playStep(actor: { send(event: never): void }, pending: PendingCalls, event: EventObject): void {
  const e = event as AnyEventObject;
  const [, kind, , id] = e.type.split('.');
  if (kind === 'done') pending.latest(id!).resolve(e.output);
  else if (kind === 'error') pending.latest(id!).reject(e.error);
  else actor.send(event as never);
}
