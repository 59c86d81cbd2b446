/** Build-time configuration (Vite env), with the development defaults of the reference server. */
import { DEV_AES_IV, DEV_AES_KEY } from '../api/codes';

export const config = {
  /** API host; empty means the app's own origin (the reference server). */
  apiBase: import.meta.env.VITE_API_BASE ?? '',
  aesKey: import.meta.env.VITE_AES_KEY ?? DEV_AES_KEY,
  aesIv: import.meta.env.VITE_AES_IV ?? DEV_AES_IV,
  /** App id for sign-ins made inside the web app when the shell supplied none. */
  appId: import.meta.env.VITE_APP_ID ?? 'web',
  /** Realtime adapters: 'local' (reference server's hub, default) or 'production' (NetEase IM). */
  realtime: (import.meta.env.VITE_REALTIME === 'production' ? 'production' : 'local') as 'local' | 'production',
  /** NetEase IM app key (production adapters). */
  nimAppKey: import.meta.env.VITE_NIM_APPKEY ?? '',
  /** Agora app id for RTM signalling and RTC media (production adapters). */
  agoraAppId: import.meta.env.VITE_AGORA_APP_ID ?? '',
  /** Presence socket URL; empty means the reference server's hub on this origin. */
  presenceUrl: import.meta.env.VITE_PRESENCE_URL ?? '',
};
