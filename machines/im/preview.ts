/**
 * The one-line preview of a message (SPEC §9 Preview labels), used by the incoming-message
 * banner and the conversation list. Every field read here is untrusted data.
 */
import type { ImMessage } from '../ports/im.port';

export const PreviewLabel = {
  picture: '[picture]',
  voice: '[Voice messages]',
  recharge: '[recharge successful!]',
  missed: '[Missed]',
  rejected: '[rejected]',
  cancelled: '[Cancelled]',
  secret: '[Secret Message]',
  moments: '[Moments Message]',
  hostRecommend: '[Host Recommend]',
  unknown: '[Unknown messages]',
} as const;

/** Custom message type of a host recommendation. */
export const CUSTOM_TYPE_HOST_RECOMMEND = 70;
/** Call-record status: 2 cancelled, 3 rejected, 4 missed. */
const CALL_RECORD_LABEL: Readonly<Record<number, string>> = {
  2: PreviewLabel.cancelled,
  3: PreviewLabel.rejected,
  4: PreviewLabel.missed,
};

/** `ext` may be an object or a JSON string; anything unreadable is no ext at all. */
export function parseExt(ext: unknown): Record<string, unknown> | null {
  if (ext && typeof ext === 'object' && !Array.isArray(ext)) return ext as Record<string, unknown>;
  if (typeof ext !== 'string' || ext.length === 0 || ext.length > 64_000) return null;
  try {
    const parsed: unknown = JSON.parse(ext);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const MAX_PREVIEW = 120;

export function previewOf(message: Pick<ImMessage, 'type' | 'text' | 'attach' | 'ext'>): string {
  const ext = parseExt(message.ext);
  if (ext?.extensionType === 'privateMsg') return PreviewLabel.secret;
  if (ext?.extensionType === 'friendMsg') return PreviewLabel.moments;
  switch (message.type) {
    case 'text':
      return typeof message.text === 'string' && message.text.trim() !== ''
        ? message.text.trim().slice(0, MAX_PREVIEW)
        : PreviewLabel.unknown;
    case 'image':
      return PreviewLabel.picture;
    case 'audio':
      return PreviewLabel.voice;
    case 'custom': {
      const attach = message.attach ?? {};
      if (attach.type === 'recharge') return PreviewLabel.recharge;
      if (Number(attach.type) === CUSTOM_TYPE_HOST_RECOMMEND) return PreviewLabel.hostRecommend;
      if (attach.type === 'call' || attach.missedCall === true) {
        if (attach.missedCall === true) return PreviewLabel.missed;
        return CALL_RECORD_LABEL[Number(attach.status)] ?? PreviewLabel.unknown;
      }
      return PreviewLabel.unknown;
    }
    default:
      return PreviewLabel.unknown;
  }
}

/** A recharge message: its banner does nothing on tap (SPEC §2). */
export const isRecharge = (message: Pick<ImMessage, 'type' | 'attach'>): boolean =>
  message.type === 'custom' && message.attach?.type === 'recharge';
