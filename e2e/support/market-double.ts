import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// Local stand-ins for DexScreener (under /dex) and GeckoTerminal (under /gecko), answering in the providers'
// shapes (docs/market.md). A test sets each one's behaviour and reads what was asked.

/** MARKET_MINT is the token the test servers are configured with (SITE_CONTRACT_ADDRESS). */
export const MARKET_MINT = 'So11111111111111111111111111111111111111112';
export const MARKET_POOL = '58oQChx4yWmvKdwLLZzBi4ChoCc2fqCUWBkwMihLYQo2';
const OTHER_POOL = '8sLbNZoA1cfnvMJLPfp98ZLAnFSYCFApfJKMbiXNLwxj';

export type SourceMode = 'ok' | 'fail' | 'slow' | 'no-pair' | 'garbage';

export interface MarketDouble {
  hostPort: string;
  /** env points a server at the double (and lets its outbound guard reach it). */
  env: Record<string, string>;
  /** paths lists every request path the double received, in order. */
  paths: string[];
  /** set changes the sources' behaviour; price is DexScreener's (GeckoTerminal answers twice it). */
  set(options: Partial<DoubleOptions>): void;
  close(): Promise<void>;
}

export interface DoubleOptions {
  dex: SourceMode;
  gecko: SourceMode;
  price: string;
  marketCap: number | undefined;
  /** change is DexScreener's 24 h change in percent. */
  change: number;
  /** delayMs holds every answer back this long (to make concurrent requests overlap). */
  delayMs: number;
}

const DEFAULTS: DoubleOptions = {
  dex: 'ok',
  gecko: 'ok',
  price: '0.00001234',
  marketCap: 1_234_567,
  change: 12.34,
  delayMs: 0,
};

function dexAnswer(options: DoubleOptions): unknown {
  if (options.dex === 'no-pair') return { schemaVersion: '1.0.0', pairs: null };
  const pair = (pairAddress: string, liquidity: number, extra: object = {}) => ({
    chainId: 'solana',
    dexId: 'raydium',
    url: 'https://evil.example/phish',
    pairAddress,
    baseToken: { address: MARKET_MINT, name: 'Queen', symbol: 'QUEEN' },
    priceUsd: options.price,
    priceChange: { h24: options.change },
    volume: { h24: 54_321 },
    liquidity: { usd: liquidity },
    fdv: 2_345_678,
    ...(options.marketCap === undefined ? {} : { marketCap: options.marketCap }),
    ...extra,
    // Garbage: every pair's price is not a number, so no pair is usable.
    ...(options.dex === 'garbage' ? { priceUsd: 'NaN' } : {}),
  });
  return {
    schemaVersion: '1.0.0',
    pairs: [
      pair(OTHER_POOL, 1_000, { priceUsd: '9' }),
      pair(MARKET_POOL, 90_000),
      pair(OTHER_POOL, 5_000_000, { chainId: 'ethereum', priceUsd: '7' }),
      pair(OTHER_POOL, 9_000_000, { baseToken: { address: OTHER_POOL }, priceUsd: '8' }),
    ],
  };
}

function geckoToken(options: DoubleOptions): unknown {
  const price = options.gecko === 'garbage' ? '0' : String(Number(options.price) * 2);
  return {
    data: {
      id: `solana_${MARKET_MINT}`,
      attributes: {
        address: MARKET_MINT,
        price_usd: price,
        fdv_usd: '3000000',
        market_cap_usd: null,
        total_reserve_in_usd: '80000.5',
        volume_usd: { h24: '1234.5' },
      },
      relationships: { top_pools: { data: [{ id: `solana_${MARKET_POOL}`, type: 'pool' }] } },
    },
    included: [{ id: `solana_${MARKET_POOL}`, attributes: { price_change_percentage: { h24: '-5.5' } } }],
  };
}

function candles(): unknown {
  const hour = 3600;
  const start = Math.floor(Date.now() / 1000 / hour) * hour;
  const list = Array.from({ length: 24 }, (_, index) => {
    const close = 0.00001 + (index % 5) * 0.000001;
    return [start - index * hour, close, close, close, close, 100];
  });
  return { data: { attributes: { ohlcv_list: list } } };
}

/** startMarketDouble serves both sources on 127.0.0.1. */
export async function startMarketDouble(): Promise<MarketDouble> {
  let options = { ...DEFAULTS };
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://double');
    paths.push(url.pathname);
    const send = (status: number, body: unknown) => {
      const delay = url.pathname.startsWith('/dex') && options.dex === 'slow' ? 8_000 : options.delayMs;
      const timer = setTimeout(() => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      }, delay);
      response.on('close', () => clearTimeout(timer));
    };
    if (url.pathname === `/dex/latest/dex/tokens/${MARKET_MINT}`) {
      return options.dex === 'fail' ? send(500, { error: 'down' }) : send(200, dexAnswer(options));
    }
    if (url.pathname === `/gecko/api/v2/networks/solana/tokens/${MARKET_MINT}`) {
      return options.gecko === 'fail'
        ? send(404, { errors: [{ status: '404' }] })
        : send(200, geckoToken(options));
    }
    if (url.pathname === `/gecko/api/v2/networks/solana/pools/${MARKET_POOL}/ohlcv/hour`) {
      return send(200, candles());
    }
    send(404, { errors: [{ status: '404', title: 'Not Found' }] });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    hostPort: `127.0.0.1:${port}`,
    env: {
      SITE_CONTRACT_ADDRESS: MARKET_MINT,
      MARKET_DEXSCREENER_URL: `${origin}/dex`,
      MARKET_GECKOTERMINAL_URL: `${origin}/gecko`,
      OUTBOUND_PRIVATE_HOSTS: `127.0.0.1:${port}`,
    },
    paths,
    set: (next) => {
      options = { ...DEFAULTS, ...next };
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
