// @vitest-environment jsdom
/**
 * Screen test of /customer-talk (SPEC §2; §7 Chat and feedback) over a fake API: problems
 * open to their replies, the feedback form sends once and shows the server's reason, and
 * the conversation slot stays empty until it is given.
 */
import {
  RouterProvider, createMemoryHistory, createRootRoute, createRouter,
} from '@tanstack/react-router';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { chat } from '../../api/contract';
import { TEXT_FEEDBACK_TOO_SHORT } from '../../api/contract/chat';
import { ServicesContext } from '../../app/services';
import { fakeServices, refusal } from '../../app/services.fake';
import type { FakeHandler } from '../../app/services.fake';
import { CustomerTalkScreen } from './CustomerTalkScreen';

afterEach(cleanup);
window.scrollTo = () => {};

const problems = [
  { id: 1, problem: 'How do I recharge diamonds?', reply: 'Open Mine, then Wallet.' },
  { id: 6, problem: 'How do I withdraw my income?', reply: 'Open Wallet, add a collection method, then apply for a withdrawal.' },
];
const types = [{ id: 1, name: 'Call quality' }, { id: 5, name: 'Suggestion' }];

function mount(handlers: Record<string, FakeHandler> = {}, conversation?: ReactNode, path = '/customer-talk') {
  const services = fakeServices({
    [chat.getCustomerReplyInfo.path]: () => ({ problemReply: problems }),
    [chat.getFeedbackType.path]: () => types,
    [chat.getAnchorFeedbackSubmit.path]: () => ({ id: 1 }),
    ...handlers,
  });
  const root = createRootRoute({ component: () => <CustomerTalkScreen conversation={conversation} /> });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: [path] }) });
  render(
    <ServicesContext.Provider value={services}>
      <RouterProvider router={router} />
    </ServicesContext.Provider>,
  );
  return services;
}

const feedback = () => screen.getByRole('region', { name: 'Feedback' });
const submits = (services: ReturnType<typeof fakeServices>) =>
  services.requests.filter((r) => r.path === chat.getAnchorFeedbackSubmit.path);

async function fillFeedback(type: string, content: string) {
  const typePicker = await screen.findByLabelText('Feedback type');
  fireEvent.change(typePicker, { target: { value: String(types.find((t) => t.name === type)!.id) } });
  fireEvent.change(screen.getByLabelText('Describe the problem'), { target: { value: content } });
}

describe('[§2 /customer-talk] customer service', () => {
  it('opened at #feedback (the Feedback link of Mine and Settings), the form is scrolled into view and its heading has focus', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function scrollIntoView(this: Element) { scrolled.push(this); };
    mount({}, undefined, '/customer-talk#feedback');
    const heading = await screen.findByRole('heading', { name: 'Feedback' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    // (The router scrolls to the hash too, when the section is there as it arrives.)
    expect(new Set(scrolled)).toEqual(new Set([feedback()]));
  });

  it('a tapped problem shows its reply; another tap hides it', async () => {
    mount();
    const question = await screen.findByRole('button', { name: 'How do I withdraw my income?' });
    expect(question.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region', { name: 'How do I withdraw my income?' })).toBeNull();
    fireEvent.click(question);
    expect(question.getAttribute('aria-expanded')).toBe('true');
    const reply = screen.getByRole('region', { name: 'How do I withdraw my income?' });
    expect(reply.textContent).toBe(problems[1]!.reply);
    expect(screen.queryByRole('region', { name: 'How do I recharge diamonds?' })).toBeNull();
    fireEvent.click(question);
    expect(screen.queryByRole('region', { name: 'How do I withdraw my income?' })).toBeNull();
  });

  it('shows why the problems could not be loaded, with a retry', async () => {
    let calls = 0;
    mount({ [chat.getCustomerReplyInfo.path]: () => {
      calls += 1;
      if (calls === 1) throw refusal('Network Connection Failure');
      return { problemReply: problems };
    } });
    const section = await screen.findByRole('region', { name: 'Common problems' });
    expect((await within(section).findByRole('alert')).textContent).toBe('Network Connection Failure');
    fireEvent.click(within(section).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'How do I recharge diamonds?' })).toBeTruthy();
  });

  it('sends a feedback once however often Send is tapped, then thanks and offers another', async () => {
    let answer: (value: unknown) => void = () => {};
    const services = mount({ [chat.getAnchorFeedbackSubmit.path]: () => new Promise((resolve) => { answer = resolve; }) });
    await fillFeedback('Suggestion', 'Please add dark mode 🌙');
    expect(within(feedback()).getByTestId('feedback-count').textContent).toBe('22 / 500');
    fireEvent.change(within(feedback()).getByLabelText('Contact (optional)'), { target: { value: 'me@example.com' } });
    const send = within(feedback()).getByRole('button', { name: 'Send feedback' });
    fireEvent.click(send);
    fireEvent.click(send);
    fireEvent.submit(send.closest('form')!);
    expect(submits(services)).toEqual([{
      path: chat.getAnchorFeedbackSubmit.path,
      body: { feedbackType: 5, content: 'Please add dark mode 🌙', contact: 'me@example.com' },
    }]);
    expect(within(feedback()).getByRole('button', { name: 'Sending…' }).hasAttribute('disabled')).toBe(true);
    await act(async () => answer({ id: 9 }));
    expect((await within(feedback()).findByRole('status')).textContent).toBe('Thank you! Your feedback reached us.');
    fireEvent.click(within(feedback()).getByRole('button', { name: 'Write another' }));
    expect((screen.getByLabelText('Describe the problem') as HTMLTextAreaElement).value).toBe('');
  });

  it('shows the server\'s reason and keeps what was written', async () => {
    const services = mount({ [chat.getAnchorFeedbackSubmit.path]: () => { throw refusal(TEXT_FEEDBACK_TOO_SHORT); } });
    await fillFeedback('Call quality', 'abc');
    fireEvent.click(within(feedback()).getByRole('button', { name: 'Send feedback' }));
    expect((await within(feedback()).findByRole('alert')).textContent).toBe(TEXT_FEEDBACK_TOO_SHORT);
    expect((screen.getByLabelText('Describe the problem') as HTMLTextAreaElement).value).toBe('abc');
    expect(submits(services)[0]!.body).toEqual({ feedbackType: 1, content: 'abc' });
  });

  it('Send stays off until a type is chosen and something is written', async () => {
    mount();
    const send = await within(await screen.findByRole('region', { name: 'Feedback' })).findByRole('button', { name: 'Send feedback' });
    expect(send.hasAttribute('disabled')).toBe(true);
    expect(within(feedback()).getByText('Choose a type and describe the problem.')).toBeTruthy();
    await fillFeedback('Suggestion', '   ');
    expect(send.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Describe the problem'), { target: { value: 'hi' } });
    await waitFor(() => expect(send.hasAttribute('disabled')).toBe(false));
  });

  it('the conversation slot shows nothing until it is given, and what it is given on top', async () => {
    mount();
    await screen.findByRole('heading', { name: 'Customer service' });
    expect(screen.queryByRole('region', { name: 'Chat with customer service' })).toBeNull();
    cleanup();
    mount({}, <p>Live chat here</p>);
    const slot = await screen.findByRole('region', { name: 'Chat with customer service' });
    expect(slot.textContent).toBe('Live chat here');
    // The screen's answers are in before the test ends.
    await screen.findByRole('button', { name: problems[0]!.problem });
    expect(slot.compareDocumentPosition(screen.getByRole('region', { name: 'Common problems' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
