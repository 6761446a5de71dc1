import type { FastifyReply } from 'fastify';

// A value's JSON text, when whoever made the value already made its JSON too (a list measures its records'
// JSON to know how many fit: read-records.ts): the text rides on the value to the route, so it is not
// serialized twice, and a page the read cache hands out again is serialized once.
// A hidden property, not a WeakMap: V8's minor GC keeps a WeakMap entry's value alive while the map is
// old, so every answer kept in one survived to the old generation (uncached lists: GC 17% of the CPU).
const JSON_TEXT = Symbol('json text');

type WithJsonText = { [JSON_TEXT]?: string };

/** withJsonText returns value carrying text as its JSON; value must not change afterwards. */
export function withJsonText<T extends object>(value: T, text: string): T {
  // Not enumerable, so Object.assign and spreads never copy it to another value.
  Object.defineProperty(value, JSON_TEXT, { value: text, configurable: true });
  return value;
}

/** jsonTextOf returns value's JSON: the text it carries, or made now. */
export function jsonTextOf(value: object): string {
  return (value as WithJsonText)[JSON_TEXT] ?? JSON.stringify(value);
}

/** sendJson answers with value as JSON (the text it carries, if any: see withJsonText). */
export function sendJson(reply: FastifyReply, value: object): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(jsonTextOf(value));
}
