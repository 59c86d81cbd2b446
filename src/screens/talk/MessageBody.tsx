/**
 * What one message shows (SPEC §3 Message): text, picture, voice, gift, recharge and the
 * other custom kinds. Every field comes from another person or the network: it is shown as
 * text or used as a checked URL, never as HTML and never spread into props.
 */
import { previewOf } from '../../../machines/im/preview';
import { parseExt } from '../../../machines/im/preview';
import type { TalkMessage } from '../../../machines/talk/talk.machine';

/** An image or audio address we load: https, or our own origin's path; http becomes https (SPEC §5). */
export function safeMediaUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2048) return null;
  if (/^\/(?!\/)/.test(value)) return value;
  try {
    const url = new URL(value.replace(/^http:\/\//i, 'https://'));
    return url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const num = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

export function MessageBody({ message }: { message: TalkMessage }) {
  const attach = message.attach ?? {};
  const ext = parseExt(message.ext);
  if (ext?.extensionType === 'privateMsg') {
    return <span className="talk-card">{previewOf(message)}</span>;
  }
  switch (message.type) {
    case 'text':
      return <span className="talk-text">{typeof message.text === 'string' ? message.text : previewOf(message)}</span>;
    case 'image': {
      const src = safeMediaUrl(attach.url);
      return src
        ? <img className="talk-image" src={src} alt="Picture" loading="lazy" decoding="async" width={160} height={160} />
        : <span className="talk-text">{previewOf(message)}</span>;
    }
    case 'audio': {
      const src = safeMediaUrl(attach.url);
      return src
        ? <audio className="talk-audio" controls preload="none" src={src} aria-label="Voice message" />
        : <span className="talk-text">{previewOf(message)}</span>;
    }
    case 'custom': {
      const giftImg = safeMediaUrl(attach.giftImg ?? attach.smallImg);
      const giftNum = num(attach.giftNum ?? attach.num);
      if (giftImg || Number(attach.attachType) === 4) {
        return (
          <span className="talk-card talk-gift">
            {giftImg && <img src={giftImg} alt="" width={40} height={40} loading="lazy" />}
            <span>{`Gift${giftNum !== null ? ` ×${giftNum}` : ''}`}</span>
          </span>
        );
      }
      const content = str(attach.content);
      return <span className="talk-card">{content ?? previewOf(message)}</span>;
    }
    default:
      return <span className="talk-text">{previewOf(message)}</span>;
  }
}
