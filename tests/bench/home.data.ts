/**
 * Made-up but realistic hosts for the home rendering bench: 1,000 host cards with names,
 * ages, countries, prices and online status. A seeded generator keeps every run the same.
 */
import type { HostCard, OnlineStatus } from '../../machines/home-list/home-list.port';
import { seededRandom } from '../../server/testing/random';

export const HOSTS = 1000;

const NAMES = ['Sofia', 'Lina', 'Mei', 'Amara', 'Valentina', 'Aisha', 'Yuki', 'Elena', 'Camila', 'Priya', 'Nadia', 'Zara'];
const COUNTRIES = [
  ['United States', 'US'], ['Philippines', 'PH'], ['Brazil', 'BR'], ['Colombia', 'CO'],
  ['India', 'IN'], ['Vietnam', 'VN'], ['Indonesia', 'ID'], ['Ukraine', 'UA'],
] as const;
const PRICES = [30, 40, 50, 60, 80, 100];
const COLOURS = ['#f28ab2', '#7cc6fe', '#9be7a0', '#f6c177', '#c3a6ff', '#ff9e80', '#80deea', '#e6ee9c'];

/**
 * Cover pictures as hosts upload them (the upload takes PNG, JPEG, GIF or WebP; photos are
 * JPEG): eight 160 × 152 JPEGs drawn once before the bench starts, behind short blob: URLs as a
 * real cover's URL is short and cached once fetched. The bench itself fetches nothing.
 */
export async function makeCovers(): Promise<string[]> {
  return Promise.all(COLOURS.map(async (colour, i) => {
    const canvas = new OffscreenCanvas(160, 152);
    const g = canvas.getContext('2d')!;
    g.fillStyle = colour;
    g.fillRect(0, 0, 160, 152);
    g.fillStyle = 'rgba(255, 255, 255, 0.55)';
    g.beginPath();
    g.arc(80, 70, 42, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#fff';
    g.font = '40px sans-serif';
    g.textAlign = 'center';
    g.fillText(`H${i + 1}`, 80, 86);
    return URL.createObjectURL(await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 }));
  }));
}


export function benchHosts(covers: readonly string[], count = HOSTS): HostCard[] {
  const random = seededRandom(7);
  return Array.from({ length: count }, (_, i): HostCard => {
    const [countryName, countryCode] = COUNTRIES[i % COUNTRIES.length]!;
    const status: OnlineStatus = i < 120 ? (random() < 0.2 ? 2 : 1) : 3;
    const name = NAMES[i % NAMES.length]!;
    return {
      kind: 'host', userId: 100_001 + i, yxAccid: `yxbench${i}`, nickname: i < NAMES.length ? name : `${name} ${Math.ceil((i + 1) / NAMES.length)}`,
      icon: covers[i % covers.length]!, userLevel: 1 + (i % 5), levelName: `Lv.${1 + (i % 5)}`, age: 19 + Math.floor(random() * 14),
      countryName, countryCode, isVip: false, onlineGroupStatus: status, videoPrice: PRICES[i % PRICES.length]!,
      cover: covers[i % covers.length]!, tags: [{ id: 11 + (i % 3), tagName: ['New', 'Popular', 'Nearby'][i % 3]! }],
    };
  });
}
