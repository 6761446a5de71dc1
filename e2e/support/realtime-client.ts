import { io, type Socket } from 'socket.io-client';

/**
 * connectSocket connects to server the way the SDK does (WebSocket only, the SDK path) and joins rooms;
 * token is the caller's bearer token (the SDK sends the string "null" when signed out).
 */
export async function connectSocket(
  serverUrl: string,
  rooms: string[] = [],
  token = 'null',
): Promise<Socket> {
  const socket = io(serverUrl, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    query: { app_id: 'queen-solana', token },
  });
  await new Promise<void>((resolveConnect, reject) => {
    socket.once('connect', resolveConnect);
    socket.once('connect_error', reject);
  });
  // Joined twice, as the SDK does.
  for (const room of rooms) socket.emit('join', room).emit('join', room);
  return socket;
}

/** received collects every payload of event that reaches socket. */
export function received<T>(socket: Socket, event: string): T[] {
  const payloads: T[] = [];
  socket.on(event, (payload: T) => payloads.push(payload));
  return payloads;
}

/**
 * eventually retries act every intervalMs until done() holds or timeoutMs passes, and reports whether it
 * held. Joins and Redis subscriptions settle asynchronously, so a single attempt could race them.
 */
export async function eventually(
  act: () => Promise<void>,
  done: () => boolean,
  { timeoutMs = 5_000, intervalMs = 250 } = {},
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    await act();
    const until = Date.now() + intervalMs;
    while (Date.now() < until) {
      if (done()) return true;
      await new Promise((wait) => setTimeout(wait, 20));
    }
  }
  return done();
}

/** RealtimeEvent is what an SDK subscription callback receives. */
export interface RealtimeEvent {
  type: 'create' | 'update' | 'delete';
  data: Record<string, unknown>;
  id: string;
  timestamp: string;
}

interface Subscribable {
  entities: Record<string, { subscribe(callback: (event: RealtimeEvent) => void): () => void } | undefined>;
}

/**
 * subscribeAll subscribes client (the official SDK) to each entity and collects the events per entity.
 * The SDK joins before its socket connects, so wait for a probe (see subscriptionReady) before writing.
 */
export function subscribeAll(client: Subscribable, names: string[]): Record<string, RealtimeEvent[]> {
  const events: Record<string, RealtimeEvent[]> = {};
  for (const name of names) {
    const list: RealtimeEvent[] = [];
    events[name] = list;
    const handler = client.entities[name];
    if (!handler) throw new Error(`the SDK has no handler for ${name}`);
    handler.subscribe((event) => list.push(event));
  }
  return events;
}

/**
 * subscriptionReady creates probe records through write (an open entity the subscriber reads, e.g. Todo)
 * until one reaches probeEvents: the socket is then connected and in every room it asked for.
 */
export async function subscriptionReady(
  write: () => Promise<unknown>,
  probeEvents: RealtimeEvent[],
): Promise<void> {
  const seen = probeEvents.length;
  const ready = await eventually(
    async () => void (await write()),
    () => probeEvents.length > seen,
    { timeoutMs: 10_000 },
  );
  if (!ready) throw new Error('the realtime subscription never became ready');
}
