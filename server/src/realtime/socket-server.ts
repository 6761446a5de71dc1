import type { Server as HttpServer, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type ServerOptions } from 'socket.io';
import { z } from 'zod';
import { NotFoundError } from '../lib/errors';
import { detachedCopy, noteUpgradeResponses, releaseHandshake } from './release-handshake';

const RoomSchema = z.string().min(1).max(256);

/**
 * SocketIdentityResolver turns the handshake's `app_id` and `token` into whatever delivery checks later,
 * and whether the socket may join the app's rooms at all (the app's visibility).
 */
export type SocketIdentityResolver = (
  appId: string,
  token: string | null,
) => Promise<{ identity: unknown; admitted: boolean }>;

/** MAX_ROOMS_PER_SOCKET is how many rooms one socket may be in by default (the SDK joins one per entity). */
export const MAX_ROOMS_PER_SOCKET = 100;

/** SocketData is what the handshake leaves on `socket.data`. */
export interface SocketData {
  appId: string;
  token: string | null;
  identity: unknown;
  /** admitted says whether the socket may be in the app's rooms (a private app admits approved users). */
  admitted: boolean;
  /** checkedAt is when identity was last resolved (ms since epoch). */
  checkedAt: number;
  /** checkedSequence orders the last check against user writes (services/delivery/socket-identities.ts). */
  checkedSequence?: number;
}

/**
 * RoomFamily is one kind of room sockets may join, registered by the capability that publishes to it (the
 * entities part registers `entities:`): realtime itself knows no room names.
 */
export interface RoomFamily {
  /** prefix starts every room of the family (`entities:`). */
  prefix: string;
  /**
   * mayJoin says whether a socket may join room (which starts with prefix): joiner is its app and the
   * identity its handshake resolved (a family whose rooms belong to someone, as a conversation does, checks it;
   * it may look it up, hence the promise).
   */
  mayJoin(joiner: Joiner, room: string): boolean | Promise<boolean>;
}

/** Joiner is a socket as a room family sees it when the socket asks to join. */
export interface Joiner {
  appId: string;
  identity: unknown;
}

/** SocketServerOptions configures how events fan out; without an adapter, within this process only. */
export interface SocketServerOptions {
  adapter?: ServerOptions['adapter'];
  /** identify resolves the handshake's identity once at connect; without it every socket is anonymous (null). */
  identify?: SocketIdentityResolver;
  /** rooms are the room families sockets may join; without them, none. */
  rooms?: readonly RoomFamily[];
  /** maxRooms caps the rooms one socket may join (default MAX_ROOMS_PER_SOCKET). */
  maxRooms?: number;
  /** handshakes bounds the sockets one client IP may hold and open; without it, unbounded. */
  handshakes?: HandshakeLimits;
  /** maxSockets caps this instance's connections (REALTIME_MAX_SOCKETS); without it, unbounded. */
  maxSockets?: number;
}

/** SERVER_FULL is the connect_error a socket past REALTIME_MAX_SOCKETS gets. */
export const SERVER_FULL =
  'This server holds as many realtime connections as it may (REALTIME_MAX_SOCKETS): try again later';
/** FULL_CLOSE_DELAY_MS is how long a refused connection stays open, so its connect_error is delivered first. */
const FULL_CLOSE_DELAY_MS = 1_000;

/** HandshakeLimits are REALTIME_MAX_SOCKETS_PER_IP and the handshake rate per IP. */
export interface HandshakeLimits {
  maxSocketsPerIp: number;
  /** clientIp is the handshake's client address (TRUST_PROXY applied, as for HTTP requests). */
  clientIp: (request: IncomingMessage) => string;
  /** mayOpen counts one handshake of ip and says whether it is within the rate. */
  mayOpen: (ip: string) => Promise<boolean>;
}

/**
 * uncountOnClose takes ip's socket off open when connection closes. Its own function, so the listener (which
 * lives as long as the connection) holds only these, not the handshake's request and engine.io's callbacks.
 */
function uncountOnClose(connection: Duplex, open: Map<string, number>, ip: string): void {
  // `on`, not `once`: close comes once anyway, and once's wrapper costs ~110 bytes per connection.
  connection.on('close', () => {
    const left = (open.get(ip) ?? 1) - 1;
    if (left > 0) open.set(ip, left);
    else open.delete(ip);
  });
}

/**
 * handshakeGate is socket.io's allowRequest: a client IP holding maxSocketsPerIp sockets, or opening them
 * faster than the rate, is refused before any socket exists. A socket is counted until its connection
 * closes (a WebSocket keeps the handshake's TCP connection).
 */
export function handshakeGate(limits: HandshakeLimits) {
  const open = new Map<string, number>();
  return (request: IncomingMessage, callback: (error: string | null | undefined, ok: boolean) => void) => {
    const ip = limits.clientIp(request);
    if ((open.get(ip) ?? 0) >= limits.maxSocketsPerIp) return callback('too many sockets', false);
    limits.mayOpen(ip).then(
      (allowed) => {
        if (!allowed) return callback('too many handshakes', false);
        // Counted now, not at `connection`, so concurrent handshakes cannot all slip under the cap.
        const count = (open.get(ip) ?? 0) + 1;
        if (count > limits.maxSocketsPerIp) return callback('too many sockets', false);
        open.set(ip, count);
        uncountOnClose(request.socket, open, ip);
        callback(null, true);
      },
      () => callback('handshake check failed', false),
    );
  };
}

function queryValue(value: unknown): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string') return null;
  // The SDK sends the literal `null` when it has no token.
  return text === '' || text === 'null' || text === 'undefined' ? null : text;
}

/**
 * mayJoin says whether a socket of appId may join room: only a room of a registered family, as that family
 * decides, so a socket cannot make the server hold rooms nobody publishes to.
 */
export async function mayJoin(
  joiner: Joiner,
  room: string,
  rooms: readonly RoomFamily[] = [],
): Promise<boolean> {
  const family = rooms.find((candidate) => room.startsWith(candidate.prefix));
  // A family that fails to decide admits nothing.
  return family !== undefined && (await Promise.resolve(family.mayJoin(joiner, room)).catch(() => false));
}

/**
 * createSocketServer attaches socket.io where the SDK connects (WebSocket only, EIO4), resolves each
 * socket's identity from its handshake and lets it join and leave the rooms its families allow. Events reach
 * them through the RealtimeHub.
 */
export function createSocketServer(httpServer: HttpServer, options: SocketServerOptions = {}): Server {
  const io = new Server(httpServer, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    serveClient: false,
    ...(options.adapter ? { adapter: options.adapter } : {}),
    ...(options.handshakes ? { allowRequest: handshakeGate(options.handshakes) } : {}),
  });
  // NB: a rejected handshake is never retried by socket.io-client, so an unknown or expired token does not
  // refuse the connection: the resolver decides what it is (the entity resolver makes it anonymous).
  io.use((socket, next) => {
    // Refused with a message the client sees (a refusal in allowRequest reaches it as a bare "websocket
    // error"), then closed so the descriptor goes back; the HTTP API never shares this cap.
    if (options.maxSockets !== undefined && io.engine.clientsCount > options.maxSockets) {
      next(new Error(SERVER_FULL));
      setTimeout(() => socket.conn.close(), FULL_CLOSE_DELAY_MS).unref();
      return;
    }
    const data = socket.data as SocketData;
    const appId = queryValue(socket.handshake.query.app_id);
    const token = queryValue(socket.handshake.query.token);
    data.appId = appId === null ? '' : detachedCopy(appId);
    data.token = token === null ? null : detachedCopy(token);
    data.identity = null;
    // Without a resolver every socket is admitted; with one, only what it admits (an error admits nothing).
    data.admitted = !options.identify;
    data.checkedAt = Date.now();
    if (!options.identify) return next();
    options.identify(data.appId, data.token).then(
      ({ identity, admitted }) => {
        data.identity = identity;
        data.admitted = admitted;
        next();
      },
      // An app this server does not host is refused (connect_error); any other failure admits nothing.
      (error: unknown) => next(error instanceof NotFoundError ? error : undefined),
    );
  });
  noteUpgradeResponses(io);
  const maxRooms = options.maxRooms ?? MAX_ROOMS_PER_SOCKET;
  io.on('connection', (socket) => {
    releaseHandshake(socket);
    const data = socket.data as SocketData;
    // NB: the SDK sends `join` twice for one subscription; socket.io's join and leave are idempotent
    // (a room is a set), also with the Redis adapter, whose rooms are local to the instance.
    socket.on('join', async (room: unknown) => {
      const parsed = RoomSchema.safeParse(room);
      // Another app's room, a room this server never publishes to, a socket the app's visibility does not
      // admit, or one over its room cap: ignored (the SDK expects no answer to a join).
      if (!parsed.success || !data.admitted) return;
      if (!(await mayJoin({ appId: data.appId, identity: data.identity }, parsed.data, options.rooms)))
        return;
      // socket.rooms also holds the socket's own id (checked after the family decided: joins may interleave).
      if (!socket.rooms.has(parsed.data) && socket.rooms.size - 1 >= maxRooms) return;
      if (socket.connected) void socket.join(parsed.data);
    });
    socket.on('leave', (room: unknown) => {
      const parsed = RoomSchema.safeParse(room);
      if (parsed.success) void socket.leave(parsed.data);
    });
  });
  return io;
}
