import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * answerUnknownRoute answers 404 JSON to a request no route took that is not a page load (an API path, or
 * a method other than GET/HEAD), and returns null for a page load, which the site answers with a page.
 */
export function answerUnknownRoute(request: FastifyRequest, reply: FastifyReply, path: string) {
  if (path === '/api' || path.startsWith('/api/')) {
    return reply.code(404).send({ message: `No API route for ${request.method} ${path}` });
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return reply.code(404).send({ message: `No route for ${request.method} ${path}` });
  }
  return null;
}
