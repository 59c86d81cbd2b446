export declare function findChromium(): string | null;
export declare function ensureChromium(): string;
