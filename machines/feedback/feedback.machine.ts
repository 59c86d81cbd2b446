/**
 * The feedback form of /customer-talk and /settings feedBack (SPEC §2; §7
 * /api/chat/getFeedbackType and getAnchorFeedbackSubmit).
 *
 *   loadingTypes ─done─▶ editing          ─error─▶ typesFailed ─feedback.retry─▶ loadingTypes
 *   editing ─feedback.submit [type chosen, text written]─▶ submitting ─done─▶ sent (emits feedback.sent)
 *                                                                    ─error─▶ failed (the server's reason)
 *   failed ─an edit─▶ editing;  failed ─feedback.submit─▶ submitting
 *   sent ─feedback.writeAnother─▶ editing (an empty form)
 *
 * The draft lives here, so a second tap while the first submission is on its way has no
 * transition and sends nothing. Length rules are the server's (its message is shown as it
 * comes); the form only caps what can be typed.
 */
import { assertEvent, assign, emit, fromPromise } from 'xstate';
import { setup } from '../setup';

export interface FeedbackKind {
  id: number;
  name: string;
}

export interface FeedbackDraft {
  typeId: number | null;
  content: string;
  contact: string;
}

export interface FeedbackSubmission {
  typeId: number;
  content: string;
  /** Left out when empty. */
  contact?: string;
}

export interface FeedbackInput {
  /** Most characters the content may have (typing stops there). */
  contentMax: number;
  contactMax: number;
}

export interface FeedbackContext extends FeedbackInput {
  kinds: FeedbackKind[];
  draft: FeedbackDraft;
  /** Why the types could not be read or the feedback was not taken; null otherwise. */
  error: string | null;
}

export type FeedbackEvent =
  | { type: 'feedback.retry' }
  | { type: 'feedback.typeChosen'; typeId: number }
  | { type: 'feedback.contentChanged'; content: string }
  | { type: 'feedback.contactChanged'; contact: string }
  | { type: 'feedback.submit' }
  | { type: 'feedback.writeAnother' };

export type FeedbackEmitted = { type: 'feedback.sent' };

export const TEXT_FEEDBACK_FAILED = 'Your feedback could not be sent. Please try again.';
export const TEXT_TYPES_FAILED = 'The feedback types could not be loaded.';

const EMPTY_DRAFT: FeedbackDraft = { typeId: null, content: '', contact: '' };

/** Characters as a person counts them (an emoji is one), as the server counts them. */
export const charCount = (text: string): number => [...text].length;

/** `text` cut to `max` characters, never in the middle of one. */
export function capText(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** What is sent: the draft as typed, the contact only when given. */
export function submissionOf(draft: FeedbackDraft): FeedbackSubmission {
  const contact = draft.contact.trim();
  return { typeId: draft.typeId ?? 0, content: draft.content, ...(contact ? { contact } : {}) };
}

const reason = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : fallback;

export const feedbackMachine = setup({
  types: {
    input: {} as FeedbackInput,
    context: {} as FeedbackContext,
    events: {} as FeedbackEvent,
    emitted: {} as FeedbackEmitted,
  },
  actors: {
    loadTypes: fromPromise<FeedbackKind[], void>(() => Promise.reject(new Error('loadTypes not provided'))),
    submit: fromPromise<unknown, FeedbackSubmission>(() => Promise.reject(new Error('submit not provided'))),
  },
  guards: {
    knownType: ({ context, event }) => {
      assertEvent(event, 'feedback.typeChosen');
      return context.kinds.some((k) => k.id === event.typeId);
    },
    canSubmit: ({ context: { draft } }) => draft.typeId !== null && draft.content.trim() !== '',
  },
  actions: {
    chooseType: assign(({ context, event }) => {
      assertEvent(event, 'feedback.typeChosen');
      return { draft: { ...context.draft, typeId: event.typeId }, error: null };
    }),
    writeContent: assign(({ context, event }) => {
      assertEvent(event, 'feedback.contentChanged');
      return { draft: { ...context.draft, content: capText(event.content, context.contentMax) }, error: null };
    }),
    writeContact: assign(({ context, event }) => {
      assertEvent(event, 'feedback.contactChanged');
      return { draft: { ...context.draft, contact: capText(event.contact, context.contactMax) }, error: null };
    }),
    clearDraft: assign({ draft: EMPTY_DRAFT, error: null }),
    recordError: assign((_, failure: { error: unknown; fallback: string }) => ({ error: reason(failure.error, failure.fallback) })),
    announceSent: emit({ type: 'feedback.sent' as const }),
  },
}).createMachine({
  id: 'feedback',
  context: ({ input }) => ({ ...input, kinds: [], draft: EMPTY_DRAFT, error: null }),
  initial: 'loadingTypes',
  states: {
    loadingTypes: {
      invoke: {
        id: 'loadTypes',
        src: 'loadTypes',
        onDone: { target: 'editing', actions: assign({ kinds: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'typesFailed',
          actions: { type: 'recordError', params: ({ event }) => ({ error: event.error, fallback: TEXT_TYPES_FAILED }) },
        },
      },
    },
    typesFailed: {
      on: { 'feedback.retry': 'loadingTypes' },
    },
    editing: {
      on: {
        'feedback.typeChosen': { guard: 'knownType', actions: 'chooseType' },
        'feedback.contentChanged': { actions: 'writeContent' },
        'feedback.contactChanged': { actions: 'writeContact' },
        'feedback.submit': { guard: 'canSubmit', target: 'submitting' },
      },
    },
    submitting: {
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => submissionOf(context.draft),
        onDone: { target: 'sent', actions: ['clearDraft', 'announceSent'] },
        onError: {
          target: 'failed',
          actions: { type: 'recordError', params: ({ event }) => ({ error: event.error, fallback: TEXT_FEEDBACK_FAILED }) },
        },
      },
    },
    /** The server did not take it; the draft stays, with the reason under the form. */
    failed: {
      on: {
        'feedback.typeChosen': { guard: 'knownType', target: 'editing', actions: 'chooseType' },
        'feedback.contentChanged': { target: 'editing', actions: 'writeContent' },
        'feedback.contactChanged': { target: 'editing', actions: 'writeContact' },
        'feedback.submit': { guard: 'canSubmit', target: 'submitting' },
      },
    },
    sent: {
      on: { 'feedback.writeAnother': 'editing' },
    },
  },
});

export type FeedbackMachine = typeof feedbackMachine;
