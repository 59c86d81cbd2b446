// @vitest-environment jsdom
/**
 * Screen tests of /liveEnds (SPEC §2: duration, viewers, gifts, income): the figures of the
 * live that just ended come from its summary; after a reload (no summary) or without stats
 * they are asked of the server, and a failure says so with a retry; with no live at all, an
 * empty state.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveSummary } from '../../../machines/live-hosting/live-hosting.types';
import { LiveEndCode, LiveEndText } from '../../../machines/live-hosting/live-hosting.types';
import { queryLiveStat } from '../../api/contract/live';
import { ServicesContext } from '../../app/services';
import { fakeServices, refusal } from '../../app/services.fake';
import type { FakeHandler, FakeServices } from '../../app/services.fake';
import { LiveEndsView, TEXT_NO_FIGURES, TEXT_NO_LIVE, TEXT_NO_LIVE_TITLE } from './LiveEndsView';

afterEach(cleanup);

const stat = (durationSec: number) => ({
  agoraChannelId: 'live-1', yxRoomId: 'room-1', liveRoomState: 1, startTime: 1, endTime: 2, durationSec, viewers: 7, gifts: 12, income: 340, endCause: 'host',
});

function mount(summary: LiveSummary | null, handlers: Record<string, FakeHandler> = {}) {
  const services: FakeServices = fakeServices(handlers);
  const calls = { home: 0, goLive: 0 };
  render(
    <ServicesContext.Provider value={services}>
      <LiveEndsView summary={summary} onHome={() => { calls.home += 1; }} onGoLive={() => { calls.goLive += 1; }} />
    </ServicesContext.Provider>,
  );
  return { services, calls };
}

const figure = (id: string) => screen.getByTestId(`live-ends-${id}`).textContent;

describe('[§2 /liveEnds] the figures of the live', () => {
  it('shows the summary\'s duration, viewers, gifts and income without asking the server', () => {
    const { services, calls } = mount({ title: 'Evening', code: LiveEndCode.byHost, text: null, stats: { durationSec: 65, viewers: 3, gifts: 9, income: 120 } });
    expect(screen.getByRole('heading', { name: 'Evening' })).toBeTruthy();
    expect([figure('duration'), figure('viewers'), figure('gifts'), figure('income')]).toEqual(['1:05', '3', '9', '120']);
    expect(screen.getByTestId('live-ends').dataset.source).toBe('summary');
    expect(services.requests).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(calls.home).toBe(1);
  });

  it('says why the live ended when the host did not end it, and counts hours', () => {
    mount({ title: 'Evening', code: LiveEndCode.forced, text: LiveEndText[LiveEndCode.forced], stats: { durationSec: 3_725, viewers: 0, gifts: 0, income: 0 } });
    expect(screen.getByRole('status').textContent).toBe(LiveEndText[LiveEndCode.forced]);
    expect(figure('duration')).toBe('1:02:05');
  });

  it('after a reload (no summary) asks the server for the latest live\'s stats', async () => {
    const { services } = mount(null, { [queryLiveStat.path]: () => stat(125) });
    expect(screen.getByTestId('live-ends').dataset.source).toBe('loading');
    await waitFor(() => expect(figure('duration')).toBe('2:05'));
    expect([figure('viewers'), figure('gifts'), figure('income')]).toEqual(['7', '12', '340']);
    expect(screen.getByRole('heading', { name: 'Live ended' })).toBeTruthy();
    expect(services.requests).toEqual([{ path: queryLiveStat.path, body: {} }]);
  });

  it('keeps the summary\'s title when its stats are missing, and retries the server after a failure', async () => {
    let fail = true;
    mount({ title: 'Evening', code: LiveEndCode.heartbeatLost, text: LiveEndText[LiveEndCode.heartbeatLost], stats: null }, {
      [queryLiveStat.path]: () => { if (fail) throw refusal('You are not live.'); return stat(59); },
    });
    expect((await screen.findByRole('alert')).textContent).toContain(TEXT_NO_FIGURES);
    expect(figure('duration')).toBe('—');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(figure('duration')).toBe('0:59'));
    expect(screen.getByRole('heading', { name: 'Evening' })).toBeTruthy();
    expect(screen.getByTestId('live-ends').dataset.source).toBe('server');
  });

  it('with no live behind it (never been live) shows an empty state that offers to go live, not an error', async () => {
    const { services, calls } = mount(null, { [queryLiveStat.path]: () => null });
    expect(await screen.findByRole('heading', { name: TEXT_NO_LIVE_TITLE })).toBeTruthy();
    expect(screen.getByText(TEXT_NO_LIVE)).toBeTruthy();
    expect(screen.getByTestId('live-ends').dataset.source).toBe('empty');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('live-ends-duration')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Go live' }));
    fireEvent.click(screen.getByRole('button', { name: 'Back to home' }));
    expect(calls).toEqual({ home: 1, goLive: 1 });
    expect(services.requests).toEqual([{ path: queryLiveStat.path, body: {} }]);
  });
});
