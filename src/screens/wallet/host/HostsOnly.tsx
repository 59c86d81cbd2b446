/** A host's money view, or, for anyone else, why not and the way back to their wallet (SPEC §6: only hosts withdraw). */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { TEXT_HOSTS_ONLY } from '../../../../machines/codes/withdraw.codes';
import { useIsHost } from './hostMoney';

export function HostsOnly({ children }: { children: ReactNode }) {
  if (useIsHost()) return <>{children}</>;
  return (
    <div className="host-panel">
      <p role="alert">{TEXT_HOSTS_ONLY}</p>
      <Link to="/wallet" className="button-link button-block">Open your wallet</Link>
    </div>
  );
}
