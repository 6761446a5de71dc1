import type { FastifyReply } from 'fastify';

// Answers the entity read cache hands out again are the same objects each time, so their JSON text can
// be kept alongside them (for as long as they live) instead of being produced again for every request.
const serialized = new WeakMap<object, string>();

/** jsonOf returns the JSON text of value, made once per object; value must not change afterwards. */
export function jsonOf(value: object): string {
  let text = serialized.get(value);
  if (text === undefined) serialized.set(value, (text = JSON.stringify(value)));
  return text;
}

/** sendJson answers with value as JSON, serialized once per object (see jsonOf). */
export function sendJson(reply: FastifyReply, value: object): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(jsonOf(value));
}
