import type { FastifyReply } from 'fastify';

// Answers the entity read cache hands out again are the same objects each time, so their JSON bytes can
// be kept alongside them (for as long as they live) instead of being serialized and encoded per request.
const serialized = new WeakMap<object, Buffer>();

/** jsonBytesOf returns the UTF-8 JSON of value, made once per object; value must not change afterwards. */
export function jsonBytesOf(value: object): Buffer {
  let bytes = serialized.get(value);
  if (bytes === undefined) serialized.set(value, (bytes = Buffer.from(JSON.stringify(value))));
  return bytes;
}

/** rememberJson keeps bytes as the JSON of value (made by the caller, e.g. while measuring it). */
export function rememberJson(value: object, bytes: Buffer): void {
  serialized.set(value, bytes);
}

/** sendJson answers with value as JSON, serialized once per object (see jsonBytesOf). */
export function sendJson(reply: FastifyReply, value: object): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(jsonBytesOf(value));
}
