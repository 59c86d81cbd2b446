// @vitest-environment jsdom
/**
 * lazyComponent: a component's code is fetched once and shared by the preload and the render; a failed
 * fetch reaches the error boundary and stays failed (no fetching in a loop) until Try again lets it
 * fetch again (no page reload).
 */
import { CatchBoundary } from '@tanstack/react-router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense, use } from 'react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ErrorComponentProps } from '@tanstack/react-router';
import { lazyComponent, retryFailedLoads, useArrived } from './lazyComponent';

afterEach(cleanup);

const Hello = () => <h1>Hello</h1>;

function Failed({ error, reset }: ErrorComponentProps) {
  const retry = () => {
    retryFailedLoads();
    reset();
  };
  return <button type="button" onClick={retry}>{`Failed: ${(error as Error).message}`}</button>;
}

/** Renders, and lets the fetch settle (React retries a suspended render when its promise settles). */
async function mount(Lazy: ReturnType<typeof lazyComponent>) {
  await act(async () => { render(
    <CatchBoundary getResetKey={() => 'screen'} errorComponent={Failed}>
      <Suspense fallback={<p>Loading</p>}>
        <Lazy />
      </Suspense>
    </CatchBoundary>,
  ); });
}

describe('lazyComponent', () => {
  it('fetches the code once for the preload and the render', async () => {
    const load = vi.fn(async () => ({ default: Hello }));
    const Lazy = lazyComponent(load);
    const preloads = [Lazy.preload(), Lazy.preload()];
    expect(preloads[0]).toBe(preloads[1]);
    await Promise.all(preloads);
    await mount(Lazy);
    expect(await screen.findByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows a failed fetch to the error boundary, and Try again fetches again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn()
      .mockRejectedValueOnce(new Error('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ default: Hello });
    const Lazy = lazyComponent(load);
    await mount(Lazy);
    const retry = await screen.findByRole('button', { name: 'Failed: Failed to fetch dynamically imported module' });
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => retry.click());
    expect(await screen.findByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('does not fetch again in a loop while the failure is being shown', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const load = vi.fn().mockRejectedValue(new Error('offline'));
    const Lazy = lazyComponent(load);
    await mount(Lazy);
    await screen.findByRole('button', { name: 'Failed: offline' });
    await act(async () => { await new Promise((resolve) => setTimeout(resolve, 50)); });
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('useArrived', () => {
  function Gate({ Lazy }: { Lazy: ReturnType<typeof lazyComponent> }) {
    return useArrived(Lazy) ? <Lazy /> : <p>Placeholder</p>;
  }
  function Fallback(): ReactNode {
    suspended += 1;
    return <p>Suspended</p>;
  }
  let suspended = 0;

  it('shows the placeholder, then the component as its code arrives, never suspending', async () => {
    suspended = 0;
    let arrive!: (module: { default: typeof Hello }) => void;
    const Lazy = lazyComponent(() => new Promise<{ default: typeof Hello }>((resolve) => { arrive = resolve; }));
    await act(async () => { render(<Suspense fallback={<Fallback />}><Gate Lazy={Lazy} /></Suspense>); });
    expect(screen.getByText('Placeholder')).toBeTruthy();
    expect(Lazy.settled()).toBe(false);
    await act(async () => arrive({ default: Hello }));
    expect(screen.getByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(Lazy.settled()).toBe(true);
    expect(suspended).toBe(0);
  });

  it('keeps the placeholder, not the fallback, while the arrived view still waits for its own parts', async () => {
    let arrive!: (module: { default: typeof Hello }) => void;
    let partsHere!: () => void;
    const parts = new Promise<void>((resolve) => { partsHere = resolve; });
    function Waiting() {
      use(parts);
      return <h1>Hello</h1>;
    }
    const Lazy = lazyComponent(() => new Promise<{ default: typeof Waiting }>((resolve) => { arrive = resolve; }));
    await act(async () => { render(<Suspense fallback={<Fallback />}><Gate Lazy={Lazy} /></Suspense>); });
    await act(async () => arrive({ default: Waiting }));
    // The arrival's render is a transition: React keeps what is shown until the view can show.
    expect(screen.getByText('Placeholder')).toBeTruthy();
    expect(screen.queryByText('Suspended')).toBeNull();
    await act(async () => partsHere());
    expect(screen.getByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(screen.queryByText('Suspended')).toBeNull();
  });

  it('renders the component at once when its code is already here', async () => {
    const Lazy = lazyComponent(async () => ({ default: Hello }));
    await Lazy.preload();
    render(<Gate Lazy={Lazy} />);
    expect(screen.getByRole('heading', { name: 'Hello' })).toBeTruthy();
  });

  it('hands a failed fetch to the error boundary, as the component would', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const Lazy = lazyComponent(() => Promise.reject(new Error('offline')));
    await act(async () => { render(
      <CatchBoundary getResetKey={() => 'gate'} errorComponent={Failed}>
        <Gate Lazy={Lazy} />
      </CatchBoundary>,
    ); });
    expect(await screen.findByRole('button', { name: 'Failed: offline' })).toBeTruthy();
  });
});
