import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../lib/errors';
import { parseInput } from '../lib/validation';
import type { RealtimeHub } from '../realtime/realtime-hub';
import { AppParamsSchema } from '../schemas/apps';
import { RealtimePingSchema } from '../schemas/realtime';
import type { CallerGuard } from './caller-guard';

/** RealtimeDiagnosticsDeps is what the realtime check needs. */
export interface RealtimeDiagnosticsDeps {
  guard: CallerGuard;
  hub: RealtimeHub;
}

/**
 * registerRealtimeDiagnosticsRoutes adds `POST /api/apps/:appId/admin/realtime/ping {room}`, service role
 * only: it publishes a `ping` event to the room through the hub, so an operator can check that an event
 * sent on one instance reaches sockets connected to another. The event carries only the room and a time.
 */
export function registerRealtimeDiagnosticsRoutes(app: FastifyInstance, deps: RealtimeDiagnosticsDeps): void {
  app.post('/api/apps/:appId/admin/realtime/ping', async (request, reply) => {
    const { appId } = parseInput(AppParamsSchema, request.params);
    await deps.guard.service(request, appId);
    const { room } = parseInput(RealtimePingSchema, request.body);
    // Rooms are named `<kind>:<appId>:…`: a service token reaches only its own app's rooms.
    if (!room.split(':').includes(appId)) {
      throw new ForbiddenError(`The room must belong to app ${appId}, e.g. entities:${appId}:Todo`);
    }
    const sentAt = new Date().toISOString();
    deps.hub.publish(room, 'ping', { type: 'ping', room, sent_at: sentAt });
    return reply.code(202).send({ room, event: 'ping', sent_at: sentAt });
  });
}
