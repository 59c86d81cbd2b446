/**
 * The services screens call directly, for lookups that are not a protocol of the root
 * actor: the encrypted API client, the translator and the media upload. Built once in src/compose/index.ts; screens read
 * them with `useServices()` and never import src/adapters.
 */
import { createContext, useContext } from 'react';
import type { InspectionEvent, Observer } from 'xstate';
import type { CallMediaView } from '../../machines/ports/call.media';
import type { CallApiPort } from '../../machines/ports/call.port';
import type { TranslatorPort } from '../../machines/ports/translator.port';
import type { WalletPort } from '../../machines/ports/wallet.port';
import type { WithdrawPort } from '../../machines/ports/withdraw.port';
import type { ClockPort } from '../../machines/ports/clock.port';
import type { ApiClient } from '../api/client';
import type { Uploader } from '../api/upload';
import type { EarlyAnswers } from '../app/early';

export interface Services {
  api: ApiClient;
  translator: TranslatorPort;
  /** Pictures and videos for the profile, with upload progress (src/api/upload.ts). */
  upload: Uploader;
  /** Answers the start asked for ahead of the first screen (src/app/early.ts). */
  early?: EarlyAnswers;
  /** The call's streams for the call screens (the media adapter itself loads with the first call). */
  callMedia?: CallMediaView;
  /** The call API (its HTTP adapter loads with the first call), for the rating of an ended call. */
  callApi?: Pick<CallApiPort, 'rate'>;
  /** Loads the call's ports and media adapter ahead of the first call (a screen offering one: call/callCode.ts). */
  warmCall?: () => void;
  /** The live room's streams for the live screens: the host's own camera (local) or the host watched (remote). */
  liveMedia?: CallMediaView;
  /** The wallet API (its HTTP adapter loads with its first call), for the wallet's orders and diamond history. */
  wallet?: Pick<WalletPort, 'orderHistory' | 'diamondFlows'>;
  /**
   * A host's money out (its HTTP adapter loads with its first call), for the screens' machines:
   * composeWithdrawal({ withdraw, clock }), composeCollectionMethods, composeWithdrawPassword, composeHostWallet.
   */
  withdraw?: WithdrawPort;
  /** The clock the root actor's machines read (realtime.ts), for machines a screen composes. */
  clock?: ClockPort;
  /** The inspector's observer when `?inspect=1` opened it: the screens' own actors show too (src/ui/useScreenActor.ts). */
  inspect?: Observer<InspectionEvent>;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesContext');
  return services;
}
