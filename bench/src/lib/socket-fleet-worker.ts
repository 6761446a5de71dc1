// One worker thread of a SocketFleet: it holds its share of the subscribed sockets and notes when each
// `update_model` arrives (absolute ms, comparable across threads), so 1,000 sockets are not all read by
// one event loop — as 1,000 browsers would not be.
//
// The sockets are a light client that speaks socket.io's wire frames over a plain WebSocket (engine.io v4:
// `0` open, `2`/`3` ping/pong; socket.io: `40` connect, `44` connect error, `42[…]` events), not
// socket.io-client: on one core, socket.io-client's decoding of 1,000 frames took longer than the server's
// sending them, so the fleet measured itself. A frame is only stamped and kept on arrival; it is decoded when
// the bench asks what arrived.
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

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
const sockets: WebSocket[] = [];
// arrivals[i] holds [time, frame] of each update_model socket i received.
const arrivals: [number, Buffer][][] = [];

const OPEN = 0x30; // '0'
const PING = 0x32; // '2'
const MESSAGE = 0x34; // '4'
const CONNECT = 0x30; // '0' after '4'
const CONNECT_ERROR = 0x34; // '4' after '4'
const EVENT = 0x32; // '2' after '4'
const UPDATE_MODEL = Buffer.from('42["update_model"');

function connect(index: number, list: [number, Buffer][]): Promise<WebSocket> {
  const address = new URL('/ws-user-apps/socket.io/', job.url.replace(/^http/, 'ws'));
  address.search = new URLSearchParams({
    EIO: '4',
    transport: 'websocket',
    app_id: job.appId,
    token: job.tokens[index] ?? 'null',
  }).toString();
  const socket = new WebSocket(address, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket: no connect within 10 s')), 10_000);
    // Kept after the connect: a later error then ends nothing but that socket (its deliveries go missing).
    socket.on('error', reject);
    socket.on('message', (frame: Buffer) => {
      const kind = frame[0];
      if (kind === MESSAGE && frame[1] === EVENT) {
        if (frame.subarray(0, UPDATE_MODEL.length).equals(UPDATE_MODEL)) list.push([now(), frame]);
      } else if (kind === PING) socket.send('3');
      else if (kind === OPEN) socket.send('40');
      else if (kind === MESSAGE && frame[1] === CONNECT) {
        clearTimeout(timer);
        socket.send(`42${JSON.stringify(['join', job.room])}`);
        resolve(socket);
      } else if (kind === MESSAGE && frame[1] === CONNECT_ERROR) {
        clearTimeout(timer);
        reject(new Error(`socket: connect_error ${frame.toString().slice(2)}`));
      }
    });
  });
}

/** dataOf is the `data` text (the record's JSON) of an `update_model` frame. */
function dataOf(frame: Buffer): string {
  const [, message] = JSON.parse(frame.toString('utf8', 2)) as [string, { data?: unknown }];
  return typeof message.data === 'string' ? message.data : JSON.stringify(message.data ?? null);
}

// With a ramp, 50 connections at a time, evenly spaced; the last batch opens at rampMs.
const batches = Math.ceil(job.count / 50);
const startedAt = now();
for (let offset = 0, batchIndex = 0; offset < job.count; offset += 50, batchIndex += 1) {
  const due = startedAt + (batches > 1 ? (job.rampMs * batchIndex) / (batches - 1) : 0);
  if (due > now()) await new Promise((wait) => setTimeout(wait, due - now()));
  const lists = Array.from({ length: Math.min(50, job.count - offset) }, (): [number, Buffer][] => []);
  const batch = await Promise.all(lists.map((list, i) => connect(offset + i, list)));
  arrivals.push(...lists);
  sockets.push(...batch);
}
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (command: Command) => {
  if (command.cmd === 'close') {
    for (const socket of sockets) socket.close();
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
    const found: [number, { at: number; marker: string; createdAt: number }[]][] = arrivals.map(
      (list, index) => [
        job.first + index,
        list.flatMap(([at, frame]) => {
          const data = dataOf(frame);
          const marker = pattern.exec(data)?.[1];
          const created = /"created_date":"([^"]+)"/.exec(data)?.[1];
          return marker ? [{ at, marker, createdAt: created ? Date.parse(created) : Number.NaN }] : [];
        }),
      ],
    );
    parentPort?.postMessage({ id: command.id, sockets: found });
    return;
  }
  // The first arrival carrying marker at each socket.
  const times: number[] = [];
  for (const list of arrivals) {
    const hit = list.find(([, frame]) => dataOf(frame).includes(command.marker));
    if (hit) times.push(hit[0]);
  }
  parentPort?.postMessage({ id: command.id, times });
});
