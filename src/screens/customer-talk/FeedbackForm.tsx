/**
 * The feedback form of /customer-talk (SPEC §7 /api/chat/getFeedbackType and
 * getAnchorFeedbackSubmit), bound to its own feedback actor: a type, the text with its
 * counter, an optional contact. The server's reason for refusing is shown as it comes.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import { fromPromise } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import { feedbackMachine } from '../../../machines/feedback/feedback.machine';
import type { FeedbackSubmission } from '../../../machines/feedback/feedback.machine';
import {
  selectCanSubmit, selectContact, selectContent, selectContentLength, selectError, selectFeedbackPhase, selectKinds,
  selectSubmitting, selectTypeId,
} from '../../../machines/feedback/feedback.selectors';
import * as chat from '../../api/contract/chat';
import { FEEDBACK_CONTACT_MAX, FEEDBACK_CONTENT_MAX, FEEDBACK_CONTENT_MIN } from '../../api/contract/chat';
import { useServices } from '../../compose/services';
import { showToast } from '../../app/toast';
import { ListMessage } from '../../ui/ListMessage';
import { TextField } from '../../ui/TextField';
import { FEEDBACK_SECTION_ID } from './helpLinks';

export const TEXT_FEEDBACK_SENT = 'Feedback sent';

export function FeedbackForm() {
  const { api } = useServices();
  const ids = useId();
  // Composed once per mount, not on every render.
  const [logic] = useState(() => feedbackMachine.provide({
    actors: {
      loadTypes: fromPromise(() => api.data(chat.getFeedbackType, {}, { silent: true })),
      submit: fromPromise<unknown, FeedbackSubmission>(({ input }) => api.data(chat.getAnchorFeedbackSubmit, {
        feedbackType: input.typeId,
        content: input.content,
        ...(input.contact ? { contact: input.contact } : {}),
        // The form shows the server's reason itself.
      }, { silent: true })),
    },
  }));
  const form = useScreenActor(logic, { input: { contentMax: FEEDBACK_CONTENT_MAX, contactMax: FEEDBACK_CONTACT_MAX } });
  const phase = useSelector(form, selectFeedbackPhase);
  const error = useSelector(form, selectError);

  useEffect(() => {
    const sent = form.on('feedback.sent', () => showToast(TEXT_FEEDBACK_SENT));
    return () => sent.unsubscribe();
  }, [form]);

  return (
    <section id={FEEDBACK_SECTION_ID} className="cs-section" aria-labelledby={`${ids}-heading`}>
      {/* Focusable by script: the Feedback link opens the page here. */}
      <h2 id={`${ids}-heading`} className="cs-heading" tabIndex={-1}>Feedback</h2>
      {phase === 'loadingTypes' && <ListMessage busy>Loading…</ListMessage>}
      {phase === 'typesFailed' && <ListMessage error={error} onRetry={() => form.send({ type: 'feedback.retry' })} />}
      {phase === 'sent' && (
        <div className="cs-sent">
          <p role="status">Thank you! Your feedback reached us.</p>
          <button type="button" className="button-link" onClick={() => form.send({ type: 'feedback.writeAnother' })}>
            Write another
          </button>
        </div>
      )}
      {phase === 'form' && <FormFields form={form} error={error} />}
    </section>
  );
}

function FormFields({ form, error }: { form: ActorRefFrom<typeof feedbackMachine>; error: string | null }) {
  const ids = useId();
  const kinds = useSelector(form, selectKinds);
  const typeId = useSelector(form, selectTypeId);
  const content = useSelector(form, selectContent);
  const length = useSelector(form, selectContentLength);
  const contact = useSelector(form, selectContact);
  const submitting = useSelector(form, selectSubmitting);
  const canSubmit = useSelector(form, selectCanSubmit);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    form.send({ type: 'feedback.submit' });
  };

  return (
    <form className="cs-feedback" onSubmit={submit} noValidate aria-busy={submitting}>
      <div className="field">
        <label htmlFor={`${ids}-type`} className="field-label">Feedback type</label>
        <select
          id={`${ids}-type`}
          className="field-input"
          value={typeId ?? ''}
          disabled={submitting}
          onChange={(e) => form.send({ type: 'feedback.typeChosen', typeId: Number(e.target.value) })}
        >
          <option value="" disabled>Choose a type</option>
          {kinds.map((k) => <option key={k.id} value={k.id}>{k.name}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${ids}-content`} className="field-label">Describe the problem</label>
        <textarea
          id={`${ids}-content`}
          className="field-input cs-textarea"
          rows={5}
          value={content}
          readOnly={submitting}
          aria-describedby={`${ids}-count`}
          onChange={(e) => form.send({ type: 'feedback.contentChanged', content: e.target.value })}
        />
        <p id={`${ids}-count`} className="cs-count">
          <span>At least {FEEDBACK_CONTENT_MIN} characters</span>
          <span data-testid="feedback-count">{length} / {FEEDBACK_CONTENT_MAX}</span>
        </p>
      </div>
      <TextField
        label="Contact (optional)"
        value={contact}
        placeholder="Email or phone"
        autoComplete="email"
        readOnly={submitting}
        onChange={(value) => form.send({ type: 'feedback.contactChanged', contact: value })}
      />
      {error && <p role="alert" className="form-error">{error}</p>}
      {!canSubmit && !submitting && <p id={`${ids}-why`} className="muted cs-hint">Choose a type and describe the problem.</p>}
      <button
        type="submit"
        className="button-link button-primary button-block"
        disabled={!canSubmit}
        aria-describedby={canSubmit || submitting ? undefined : `${ids}-why`}
      >
        {submitting ? 'Sending…' : 'Send feedback'}
      </button>
    </form>
  );
}
