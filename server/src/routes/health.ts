import type { FastifyInstance } from 'fastify';

/** registerHealthRoutes adds `GET /healthz`, which turns 503 once shutdown has begun. */
export function registerHealthRoutes(app: FastifyInstance, isShuttingDown: () => boolean): void {
  app.get('/healthz', async (_request, reply) => {
    if (isShuttingDown()) return reply.code(503).send({ status: 'shutting_down' });
    return { status: 'ok' };
  });
}
