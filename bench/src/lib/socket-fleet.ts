import { Worker } from 'node:worker_threads';

/** FleetOptions says where the sockets connect, as whom, and which room they join. */
export interface FleetOptions {
  url: string;
  sockets: number;
  threads: number;
  appId: string;
  token: string;
  room: string;
  /** tokens, when given, are the sockets' tokens in turn (socket i has tokens[i % length]); token is then unused. */
  tokens?: string[];
  /** rampMs spreads the connections over this long, as visitors arrive (default: as fast as they open). */
  rampMs?: number;
}

/**
 * Delivery is one `update_model` a socket received: when, the marker its record's text or title carried, and
 * the record's created_date (ms): stamped in the create's transaction, so at or before its commit.
 */
export interface Delivery {
  at: number;
  marker: string;
  createdAt: number;
}

// Worker threads do not inherit tsx's loader: the thread registers it, then loads the TypeScript worker.
const WORKER_URL = new URL('./socket-fleet-worker.ts', import.meta.url).href;
const WORKER_BOOTSTRAP = `import('tsx/esm/api').then(({ register }) => {
  register();
  return import(${JSON.stringify(WORKER_URL)});
});`;

/**
 * oneAddressLimits is the server environment that lets a fleet of `sockets` connect: every socket comes from
 * one address, and the per-IP caps (100 sockets by default) would refuse the 101st handshake with a 400.
 */
export function oneAddressLimits(sockets: number): Record<string, string> {
  return {
    REALTIME_MAX_SOCKETS_PER_IP: String(sockets * 2),
    REALTIME_HANDSHAKES_PER_IP_PER_MINUTE: '1000000',
    MAX_CONNECTIONS_PER_IP: String(sockets * 2),
  };
}

/** absoluteNow is the clock the fleet's threads note arrivals with (ms, comparable across threads). */
export const absoluteNow = () => performance.timeOrigin + performance.now();

/**
 * SocketFleet spreads subscribed sockets (a light socket.io wire client, see socket-fleet-worker.ts) over
 * worker threads, so the time to read 1,000 `update_model` frames is shared like 1,000 clients would share
 * it, and reports when each arrived.
 */
export class SocketFleet {
  private constructor(
    private readonly workers: Worker[],
    readonly size: number,
  ) {}

  private nextId = 0;

  /** open connects options.sockets sockets (split over options.threads workers) and waits until all joined. */
  static async open(options: FleetOptions): Promise<SocketFleet> {
    const workers: Worker[] = [];
    const ready: Promise<void>[] = [];
    for (let t = 0; t < options.threads; t++) {
      const count =
        Math.floor(options.sockets / options.threads) + (t < options.sockets % options.threads ? 1 : 0);
      // Socket i of the fleet is socket (i - first) of thread t: it keeps its token across the split.
      const first =
        t * Math.floor(options.sockets / options.threads) + Math.min(t, options.sockets % options.threads);
      const tokens = Array.from(
        { length: count },
        (_, i) => options.tokens?.[(first + i) % options.tokens.length] ?? options.token,
      );
      const worker = new Worker(WORKER_BOOTSTRAP, {
        eval: true,
        workerData: {
          url: options.url,
          count,
          appId: options.appId,
          tokens,
          first,
          room: options.room,
          rampMs: options.rampMs ?? 0,
        },
      });
      workers.push(worker);
      ready.push(
        new Promise((resolve, reject) => {
          worker.once('message', () => resolve());
          worker.once('error', reject);
        }),
      );
    }
    try {
      await Promise.all(ready);
    } catch (error) {
      await Promise.all(workers.map((worker) => worker.terminate()));
      throw error;
    }
    return new SocketFleet(workers, options.sockets);
  }

  private ask<T>(worker: Worker, command: Record<string, unknown>): Promise<T> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const listen = (message: { id?: number } & T) => {
        if (message.id !== id) return;
        worker.off('message', listen);
        resolve(message);
      };
      worker.on('message', listen);
      worker.postMessage({ ...command, id });
    });
  }

  /** arrivals returns when each socket first received an update_model containing marker (absolute ms). */
  async arrivals(marker: string): Promise<number[]> {
    const parts = await Promise.all(
      this.workers.map((worker) => this.ask<{ times: number[] }>(worker, { cmd: 'arrivals', marker })),
    );
    return parts.flatMap((part) => part.times);
  }

  /**
   * deliveries returns, per socket of the fleet (by its index), what it received whose `text` or `title`
   * starts with prefix: for checks of who got what.
   */
  async deliveries(prefix: string): Promise<Map<number, Delivery[]>> {
    const parts = await Promise.all(
      this.workers.map((worker) =>
        this.ask<{ sockets: [number, Delivery[]][] }>(worker, { cmd: 'deliveries', prefix }),
      ),
    );
    return new Map(parts.flatMap((part) => part.sockets));
  }

  /** reset forgets every arrival noted so far. */
  async reset(): Promise<void> {
    await Promise.all(this.workers.map((worker) => this.ask(worker, { cmd: 'reset' })));
  }

  /** close disconnects every socket and ends the threads. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => this.ask(worker, { cmd: 'close' })));
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}
