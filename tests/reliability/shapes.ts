/**
 * Inputs for the fuzz, from the contract's own schemas: a request schema (zod, through its
 * JSON Schema) becomes a fast-check arbitrary of bodies that mostly pass validation, with
 * fields that name people, calls, rooms or gifts drawn from values the server knows, so that
 * the handlers behind the validation are reached too. `nasty` gives the values that break
 * things: wrong types, huge and odd numbers, unicode, oversize strings.
 */
import fc from 'fast-check';
import * as z from 'zod/mini';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
};

/** Values the server knows, by what a field names. */
export interface KnownValues {
  userIds: number[];
  accids: string[];
  channelIds: string[];
  roomIds: string[];
  giftIds: number[];
  /** Small record ids (asks, secret messages, tags). */
  ids: number[];
}

/** A JSON Schema of the zod schema's input (transforms read as anything). */
export function jsonSchemaOf(schema: z.ZodMiniType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const SAFE = Number.MAX_SAFE_INTEGER;

function knownFor(name: string, type: 'integer' | 'number' | 'string', known: KnownValues): unknown[] {
  const key = name.toLowerCase();
  if (type === 'string') {
    if (/accid|^to$|^peer$|^account$|imid/.test(key)) return known.accids;
    if (/channel/.test(key)) return known.channelIds;
    if (/room/.test(key)) return known.roomIds;
    if (key === 'searchvalue') return [...known.roomIds, ...known.channelIds, ...known.userIds.map(String)];
    return [];
  }
  if (/userid$|^userid|beuserid/.test(key)) return known.userIds;
  if (/giftid/.test(key)) return known.giftIds;
  if (/id$/.test(key)) return known.ids;
  return [];
}

/** Bodies shaped like the schema; `name` is the field's name (for known values). */
export function arbitraryOf(schema: JsonSchema, known: KnownValues, name = '', depth = 0): fc.Arbitrary<unknown> {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => arbitraryOf(s, known, name, depth)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = Math.max(-SAFE, schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000));
      const max = Math.min(SAFE, schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000_000));
      const own = type === 'integer'
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
        : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      const pool = knownFor(name, type, known).filter((v) => typeof v === 'number' && v >= min && v <= max);
      return pool.length ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: own, weight: 1 }) : own;
    }
    case 'string': {
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.min(schema.maxLength ?? 64, 256);
      let own: fc.Arbitrary<string>;
      if (schema.pattern) {
        // Stretched or cut to the length bounds, not filtered: a filter that rarely passes never ends.
        const most = schema.maxLength ?? Infinity;
        own = fc.stringMatching(new RegExp(schema.pattern)).map((s) => {
          let out = s;
          while (out.length > 0 && out.length < minLength) out += s;
          return out.slice(0, most);
        });
      } else {
        own = fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' });
      }
      const pool = knownFor(name, 'string', known).filter((v) => typeof v === 'string' && v.length >= minLength);
      return pool.length ? fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary: own, weight: 1 }) : own;
    }
    case 'array': {
      const item = schema.items ? arbitraryOf(schema.items, known, name, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(item, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 12) });
    }
    case 'object': {
      if (!schema.properties) {
        return depth > 2 ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 });
      }
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(schema.properties)) model[key] = arbitraryOf(property, known, key, depth + 1);
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that break naïve code: wrong types, extreme numbers, odd unicode, long strings. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null, true, false, 0, -0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324, '', ' ', '0', '-1',
    '1e309', 'NaN', 'null', 'undefined', '__proto__', 'constructor', '../../etc/passwd', '%00', '\u0000', '\uFEFF', '\u202E',
    'ｈｏｓｔ１', '𝕏'.repeat(300), '\uD83D', '<script>alert(1)</script>', "' OR 1=1 --", '{}', '[]', [], {}, [[[[[]]]]],
    JSON.parse('{"__proto__":{"admin":true}}'), { constructor: { prototype: {} } },
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1_000, max: 100_000 }).map((size) => 'x'.repeat(size)),
);

/** A long string, from `size` code units of mixed scripts. */
export const oversize = (size: number): string => 'Añ中😀\u0301'.repeat(Math.ceil(size / 6)).slice(0, size);
