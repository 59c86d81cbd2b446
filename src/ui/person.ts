/** Words and marks for people shared by the home, profile and follow lists. */

/** SPEC §3 onlineGroupStatus (1 online, 2 busy, 3 offline) in words. */
export const STATUS_LABEL: Readonly<Record<1 | 2 | 3, string>> = { 1: 'Online', 2: 'Busy', 3: 'Offline' };

/** The flag emoji of an ISO 3166 alpha-2 code ('BR' → 🇧🇷); '' for anything else. */
export function flagOf(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
