/**
 * Generated-path tests of the feedback form (SPEC §7 getFeedbackType, getAnchorFeedbackSubmit)
 * with manual-mode actors, plus the double tap, the server's refusal and the helpers.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import {
  TEXT_FEEDBACK_FAILED, TEXT_TYPES_FAILED, capText, charCount, feedbackMachine, submissionOf,
} from './feedback.machine';
import type { FeedbackKind, FeedbackSubmission } from './feedback.machine';
import {
  selectCanSubmit, selectContentLength, selectError, selectFeedbackPhase, selectSubmitting,
} from './feedback.selectors';

const kinds: FeedbackKind[] = [{ id: 1, name: 'Call quality' }, { id: 5, name: 'Suggestion' }];
const input = { contentMax: 10, contactMax: 5 };
const TOO_SHORT = 'Please describe the problem in at least 5 characters.';

function manual() {
  const pending = new PendingCalls();
  const logic = feedbackMachine.provide({
    actors: {
      loadTypes: fromPromise(() => pending.add<FeedbackKind[]>('loadTypes', [])),
      submit: fromPromise<unknown, FeedbackSubmission>(({ input: submission }) => pending.add('submit', [submission])),
    },
  });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadTypes', output: kinds },
  { type: 'xstate.error.actor.loadTypes', error: new Error('Network Connection Failure') },
  { type: 'feedback.retry' },
  { type: 'feedback.typeChosen', typeId: 5 },
  { type: 'feedback.typeChosen', typeId: 99 },
  { type: 'feedback.contentChanged', content: 'Too slow' },
  { type: 'feedback.contentChanged', content: '   ' },
  { type: 'feedback.contactChanged', contact: 'me@x' },
  { type: 'feedback.submit' },
  { type: 'feedback.writeAnother' },
  { type: 'xstate.done.actor.submit', output: { id: 1 } },
  { type: 'xstate.error.actor.submit', error: new Error(TOO_SHORT) },
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input, inspect });
  let announced = 0;
  actor.on('feedback.sent', () => { announced += 1; });
  actor.start();
  let sent = 0;
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    const payload = event as AnyEventObject;
    if (kind === 'done') {
      pending.next(id!).resolve(payload.output);
      if (id === 'submit') sent += 1;
    } else if (kind === 'error') {
      pending.next(id!).reject(payload.error);
    } else {
      actor.send(event as never);
    }
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(snapshot.context).toEqual(state.context);
    // One submission per entry into submitting, with the draft as it was.
    if (snapshot.matches('submitting')) {
      const [submission] = pending.next('submit').args as [FeedbackSubmission];
      expect(submission).toEqual(submissionOf(snapshot.context.draft));
      expect(submission.typeId).not.toBe(0);
      expect(submission.content.trim()).not.toBe('');
    }
    if (snapshot.matches('failed') || snapshot.matches('typesFailed')) expect(snapshot.context.error).not.toBeNull();
    if (snapshot.matches('editing')) expect(snapshot.context.error).toBeNull();
    if (snapshot.matches('sent')) expect(snapshot.context.draft).toEqual({ typeId: null, content: '', contact: '' });
    expect(announced).toBe(sent);
    expect(pending.open().filter((c) => c.method === 'submit').length).toBeLessThanOrEqual(1);
  }
  actor.stop();
}

describeGeneratedPaths('feedback', feedbackMachine, {
  events: samples,
  inputs: { 'content max 10, contact max 5': input },
  serializeContext: (c) => {
    const { draft, error, kinds: loaded } = c as { draft: unknown; error: string | null; kinds: FeedbackKind[] };
    return { draft, error, loaded: loaded.length };
  },
  minPaths: 30,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§7 feedback] the feedback form', () => {
  async function ready() {
    const m = manual();
    const actor = createActor(m.logic, { input }).start();
    m.pending.next('loadTypes').resolve(kinds);
    await flush();
    return { ...m, actor };
  }

  it('a double tap on Send sends once', async () => {
    const { actor, pending } = await ready();
    actor.send({ type: 'feedback.typeChosen', typeId: 1 });
    actor.send({ type: 'feedback.contentChanged', content: 'Echo on calls' });
    actor.send({ type: 'feedback.submit' });
    actor.send({ type: 'feedback.submit' });
    expect(pending.count('submit')).toBe(1);
    expect(selectSubmitting(actor.getSnapshot())).toBe(true);
    expect(selectCanSubmit(actor.getSnapshot())).toBe(false);
  });

  it('shows the server\'s reason and keeps the draft; an edit clears the reason', async () => {
    const { actor, pending } = await ready();
    actor.send({ type: 'feedback.typeChosen', typeId: 5 });
    actor.send({ type: 'feedback.contentChanged', content: 'abc' });
    actor.send({ type: 'feedback.submit' });
    pending.next('submit').reject(new Error(TOO_SHORT));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(selectError(actor.getSnapshot())).toBe(TOO_SHORT);
    expect(actor.getSnapshot().context.draft).toEqual({ typeId: 5, content: 'abc', contact: '' });
    actor.send({ type: 'feedback.contentChanged', content: 'abcdef' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(selectError(actor.getSnapshot())).toBeNull();
  });

  it('a failure without a message gets a readable one', async () => {
    const { actor, pending } = await ready();
    actor.send({ type: 'feedback.typeChosen', typeId: 5 });
    actor.send({ type: 'feedback.contentChanged', content: 'hello there' });
    actor.send({ type: 'feedback.submit' });
    pending.next('submit').reject({ status: 500 });
    await flush();
    expect(selectError(actor.getSnapshot())).toBe(TEXT_FEEDBACK_FAILED);
  });

  it('sent: the form empties, `feedback.sent` is emitted once, and another can be written', async () => {
    const { actor, pending } = await ready();
    const seen: string[] = [];
    actor.on('feedback.sent', (e) => seen.push(e.type));
    actor.send({ type: 'feedback.typeChosen', typeId: 1 });
    actor.send({ type: 'feedback.contentChanged', content: 'Echo on calls' });
    actor.send({ type: 'feedback.contactChanged', contact: '  ' });
    actor.send({ type: 'feedback.submit' });
    expect(pending.next('submit').args).toEqual([{ typeId: 1, content: 'Echo on ca' }]);
    pending.next('submit').resolve({ id: 7 });
    await flush();
    expect(selectFeedbackPhase(actor.getSnapshot())).toBe('sent');
    expect(seen).toEqual(['feedback.sent']);
    actor.send({ type: 'feedback.writeAnother' });
    expect(selectFeedbackPhase(actor.getSnapshot())).toBe('form');
    expect(actor.getSnapshot().context.draft).toEqual({ typeId: null, content: '', contact: '' });
  });

  it('types that cannot be read: a reason and a retry', async () => {
    const m = manual();
    const actor = createActor(m.logic, { input }).start();
    expect(selectFeedbackPhase(actor.getSnapshot())).toBe('loadingTypes');
    m.pending.next('loadTypes').reject(new Error(''));
    await flush();
    expect(selectFeedbackPhase(actor.getSnapshot())).toBe('typesFailed');
    expect(selectError(actor.getSnapshot())).toBe(TEXT_TYPES_FAILED);
    actor.send({ type: 'feedback.retry' });
    m.pending.next('loadTypes').resolve(kinds);
    await flush();
    expect(selectFeedbackPhase(actor.getSnapshot())).toBe('form');
    expect(selectError(actor.getSnapshot())).toBeNull();
  });

  it('caps typing at the limits, counting an emoji as one character', async () => {
    const { actor } = await ready();
    actor.send({ type: 'feedback.contentChanged', content: '😀'.repeat(12) });
    expect(selectContentLength(actor.getSnapshot())).toBe(10);
    actor.send({ type: 'feedback.contactChanged', contact: 'abcdefgh' });
    expect(actor.getSnapshot().context.draft.contact).toBe('abcde');
  });
});

describe('feedback helpers', () => {
  it('charCount and capText count code points', () => {
    expect(charCount('a😀b')).toBe(3);
    expect(capText('a😀bc', 2)).toBe('a😀');
    expect(capText('abc', 5)).toBe('abc');
  });

  it('submissionOf leaves a blank contact out and trims a given one', () => {
    expect(submissionOf({ typeId: 2, content: ' hi ', contact: ' ' })).toEqual({ typeId: 2, content: ' hi ' });
    expect(submissionOf({ typeId: 2, content: 'hi', contact: ' me@x.io ' })).toEqual({ typeId: 2, content: 'hi', contact: 'me@x.io' });
  });
});
