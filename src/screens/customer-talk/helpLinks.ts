/**
 * Where people reach customer service and feedback from (SPEC §2 /customer-talk, /settings
 * feedBack): Mine, in both modes, and Settings list these.
 */
import type { LinkListItem } from '../../ui/LinkList';

/** The id of the feedback form's section on /customer-talk, opened by the Feedback link. */
export const FEEDBACK_SECTION_ID = 'feedback';

export const HELP_LINKS: readonly LinkListItem[] = [
  { to: '/customer-talk', label: 'Customer service' },
  { to: '/customer-talk', hash: FEEDBACK_SECTION_ID, label: 'Feedback' },
];
