/**
 * /customer-talk (SPEC §2; §7 Chat and feedback): the chat with the customer-service account
 * on top, then the common problems with their replies, then the feedback form, which
 * /customer-talk#feedback (the Feedback link of Mine and Settings) opens at.
 */
import { useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { selectBanner, selectSession } from '../../../machines/session/session.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { TalkConversation } from '../talk/TalkConversation';
import { CommonProblems } from './CommonProblems';
import { FeedbackForm } from './FeedbackForm';
import { FEEDBACK_SECTION_ID } from './helpLinks';
import './customer-talk.css';

export interface CustomerTalkScreenProps {
  /**
   * SLOT: the live chat with the customer-service account (/api/im/getCustomerServiceList),
   * filled by the conversation work. Nothing shows there until it is given.
   */
  conversation?: ReactNode;
}

/** The customer-service IM account (/api/im/getCustomerServiceList), as the session learnt it. */
function useCustomerServiceAccount(): string | null {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const banner = useSelector(session, selectBanner);
  return useSelector(banner, (s) => s?.context.customerServiceId ?? null);
}

export default function CustomerTalkRoute() {
  const account = useCustomerServiceAccount();
  return <CustomerTalkScreen conversation={account ? <TalkConversation peer={account} /> : null} />;
}

export function CustomerTalkScreen({ conversation }: CustomerTalkScreenProps) {
  const hash = useRouterState({ select: (s) => s.location.hash });
  // Opened for feedback: the form is brought into view, and focus to its heading.
  useEffect(() => {
    if (hash !== FEEDBACK_SECTION_ID) return;
    const section = document.getElementById(FEEDBACK_SECTION_ID);
    section?.scrollIntoView({ block: 'start' });
    section?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
  }, [hash]);
  return (
    <ScreenFrame title="Customer service" back>
      {conversation != null && (
        <section className="cs-conversation" aria-label="Chat with customer service">{conversation}</section>
      )}
      <CommonProblems />
      <FeedbackForm />
    </ScreenFrame>
  );
}
