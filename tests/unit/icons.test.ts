/**
 * Icons are SVG, never glyphs (CONVENTIONS "What people see"): a device without an emoji font
 * shows an emoji as an empty box, and a symbol drawn as an icon (a star, a check, a diamond)
 * depends on the fonts a phone has. This keeps them out of the app's source, index.html and
 * the files it ships from public/; tests may type emoji as what a person writes. The icon set is
 * imported one icon at a time (src/ui/icons.tsx says why).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Emoji (pictographs, flags' regional indicators) and the symbols the app once drew as icons. */
const ICON_GLYPH = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u2191\u2193\u2605\u2606\u25C6\u25CF\u2713-\u2716]/gu;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return /\.(tsx?|css|html|svg|json)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('icons', () => {
  it('no emoji or symbol glyph stands for an icon in what the app ships', () => {
    const found = [...filesUnder('src'), ...filesUnder('public'), 'index.html'].flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, i) => {
        const glyphs = line.match(ICON_GLYPH);
        return glyphs ? [`${file}:${i + 1}: ${glyphs.join(' ')}`] : [];
      }));
    expect(found).toEqual([]);
  });

  it('icons are imported one at a time (antd-mobile-icons/es/<Icon>), so a screen carries only those it shows', () => {
    const whole = filesUnder('src').filter((file) => /from 'antd-mobile-icons'/.test(readFileSync(file, 'utf8')));
    expect(whole).toEqual([]);
  });
});
