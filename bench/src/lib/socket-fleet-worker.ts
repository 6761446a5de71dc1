// One worker thread of a SocketFleet: it holds its share of the subscribed sockets and notes when each
// `update_model` arrives (absolute ms, comparable across threads), so 1,000 sockets are not all read by
// one event loop — as 1,000 browsers would not be.
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';

interface FleetJob {
  url: string;
  count: number;
  appId: string;
  /** tokens[i] is socket i's token; first is socket 0's index in the whole fleet. */
  tokens: string[];
  first: number;
  room: string;
  /** rampMs spreads this thread's connections over that long (0: in batches of 50, at once). */
  rampMs: number;
}

type Command =
  | { cmd: 'arrivals'; marker: string; id: number }
  | { cmd: 'deliveries'; prefix: string; id: number }
  | { cmd: 'reset'; id: number }
  | { cmd: 'close'; id: number };

const job = workerData as FleetJob;
const now = () => performance.timeOrigin + performance.now();
const sockets: Socket[] = [];
// arrivals[i] holds [time, data] of each update_model socket i received.
const arrivals: [number, string][][] = [];

function connect(index: number): Promise<Socket> {
  const socket = io(job.url, {
    path: '/ws-user-apps/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    timeout: 10_000,
    query: { app_id: job.appId, token: job.tokens[index] ?? 'null' },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

// With a ramp, 50 connections at a time, evenly spaced; the last batch opens at rampMs.
const batches = Math.ceil(job.count / 50);
const startedAt = now();
for (let offset = 0, batchIndex = 0; offset < job.count; offset += 50, batchIndex += 1) {
  const due = startedAt + (batches > 1 ? (job.rampMs * batchIndex) / (batches - 1) : 0);
  if (due > now()) await new Promise((wait) => setTimeout(wait, due - now()));
  const batch = await Promise.all(
    Array.from({ length: Math.min(50, job.count - offset) }, (_, i) => connect(offset + i)),
  );
  for (const socket of batch) {
    const list: [number, string][] = [];
    arrivals.push(list);
    socket.on('update_model', (message: { data: string }) => list.push([now(), message.data]));
    socket.emit('join', job.room);
    sockets.push(socket);
  }
}
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (command: Command) => {
  if (command.cmd === 'close') {
    for (const socket of sockets) socket.disconnect();
    parentPort?.postMessage({ id: command.id });
    return;
  }
  if (command.cmd === 'reset') {
    for (const list of arrivals) list.length = 0;
    parentPort?.postMessage({ id: command.id });
    return;
  }
  if (command.cmd === 'deliveries') {
    const pattern = new RegExp(`"(?:text|title)":"(${command.prefix}[^"]*)"`);
    const found: [number, { at: number; marker: string }[]][] = arrivals.map((list, index) => [
      job.first + index,
      list.flatMap(([at, data]) => {
        const marker = pattern.exec(data)?.[1];
        return marker ? [{ at, marker }] : [];
      }),
    ]);
    parentPort?.postMessage({ id: command.id, sockets: found });
    return;
  }
  // The first arrival carrying marker at each socket.
  const times: number[] = [];
  for (const list of arrivals) {
    const hit = list.find(([, data]) => data.includes(command.marker));
    if (hit) times.push(hit[0]);
  }
  parentPort?.postMessage({ id: command.id, times });
});
