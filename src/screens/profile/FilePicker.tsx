/**
 * A labelled file picker for pictures and videos (the native input, visually hidden inside a
 * 44 px label that looks like a button), and the checks a file must pass before it is sent
 * (src/api/contract/media.ts: the accepted types and sizes, with the server's own words).
 */
import type { ChangeEvent } from 'react';
import {
  TEXT_UPLOAD_EMPTY, TEXT_UPLOAD_TOO_LARGE, TEXT_UPLOAD_TYPE, UPLOAD_MAX_PICTURE_BYTES, UPLOAD_MAX_VIDEO_BYTES, UPLOAD_TYPES,
} from '../../api/contract/media';
import { mediaTypeOf } from '../../api/upload';

const PICTURE_TYPES = Object.entries(UPLOAD_TYPES).filter(([, t]) => t.mediaType === 1).map(([type]) => type).join(',');
const ALL_TYPES = Object.keys(UPLOAD_TYPES).join(',');

export const TEXT_PICTURE_ONLY = 'Please choose a picture (PNG, JPEG, GIF or WebP).';

/** Why `file` cannot be uploaded, or null when it can. */
export function checkFile(file: Blob, picturesOnly: boolean): string | null {
  const mediaType = mediaTypeOf(file.type);
  if (mediaType === null) return picturesOnly ? TEXT_PICTURE_ONLY : TEXT_UPLOAD_TYPE;
  if (picturesOnly && mediaType !== 1) return TEXT_PICTURE_ONLY;
  if (file.size === 0) return TEXT_UPLOAD_EMPTY;
  if (file.size > (mediaType === 1 ? UPLOAD_MAX_PICTURE_BYTES : UPLOAD_MAX_VIDEO_BYTES)) return TEXT_UPLOAD_TOO_LARGE;
  return null;
}

interface FilePickerProps {
  label: string;
  picturesOnly?: boolean;
  disabled?: boolean;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
}

export function FilePicker({ label, picturesOnly = false, disabled = false, onChange }: FilePickerProps) {
  return (
    <label className="button-link file-picker" data-disabled={disabled}>
      {label}
      <input
        type="file"
        className="file-picker-input"
        accept={picturesOnly ? PICTURE_TYPES : ALL_TYPES}
        disabled={disabled}
        onChange={onChange}
      />
    </label>
  );
}
