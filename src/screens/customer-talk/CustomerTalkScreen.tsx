/**
 * /customer-talk (SPEC §2; §7 Chat and feedback): the chat with the customer-service account
 * on top, then the common problems with their replies, then the feedback form.
 */
import type { ReactNode } from 'react';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { CommonProblems } from './CommonProblems';
import { FeedbackForm } from './FeedbackForm';
import './customer-talk.css';

export interface CustomerTalkScreenProps {
  /**
   * SLOT: the live chat with the customer-service account (/api/im/getCustomerServiceList),
   * filled by the conversation work. Nothing shows there until it is given.
   */
  conversation?: ReactNode;
}

export default function CustomerTalkScreen({ conversation }: CustomerTalkScreenProps) {
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
