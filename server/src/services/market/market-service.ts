// The market figures of the one configured token, however many visitors ask: one upstream refresh at a
// time (single flight), an answer kept fresh for MARKET_FRESH_MS and served stale for up to MARKET_STALE_MS
// while a refresh runs, shared between instances through Redis when there is one. A failing or nonsensical
// source is skipped and logged at most once a minute per source.
import { parseMarketSnapshot, type MarketSnapshot } from '../../../../site/src/page-contract/market';
import type { MarketQuote, MarketSources } from './market-sources';

/** MarketLog is the part of a pino logger the service uses. */
export interface MarketLog {
  warn(object: object, message: string): void;
}

/** SharedMarketCache is where instances share the last answer (Redis); failures fall back to local. */
export interface SharedMarketCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', ttlMs: number): Promise<unknown>;
}

export interface MarketServiceOptions {
  mint: string;
  sources: MarketSources;
  log: MarketLog;
  freshMs: number;
  staleMs: number;
  shared?: SharedMarketCache | null;
  /** sharedKey names the answer in the shared cache (the Redis prefix and the mint). */
  sharedKey?: string;
  now?: () => number;
}

/** MarketService answers the configured token's market figures. */
export interface MarketService {
  /** current is the latest usable snapshot (refreshing first when there is none fresh enough), or null. */
  current(): Promise<MarketSnapshot | null>;
  /** cached is what is at hand without waiting (a stale answer starts a refresh), or null. */
  cached(): MarketSnapshot | null;
}

const LOG_EVERY_MS = 60_000;

/** MAX_RETRY_AFTER_MS is the longest wait before upstream is asked again after an attempt (it is freshMs when shorter). */
const MAX_RETRY_AFTER_MS = 10_000;

/** createMarketService caches and single-flights the sources' answers for options.mint. */
export function createMarketService(options: MarketServiceOptions): MarketService {
  const now = options.now ?? Date.now;
  let last: { snapshot: MarketSnapshot; fetchedAt: number } | null = null;
  let inFlight: Promise<void> | null = null;
  // When upstream was last asked: after a failure, visitors' requests do not ask again at once (a source
  // answering errors fast would otherwise be asked back to back, and rate-limit or ban this server).
  let lastAttemptAt = Number.NEGATIVE_INFINITY;
  const retryAfterMs = Math.min(options.freshMs, MAX_RETRY_AFTER_MS);
  const loggedAt = new Map<string, number>();

  function skip(source: string, error: unknown) {
    const time = now();
    if (time - (loggedAt.get(source) ?? -Infinity) < LOG_EVERY_MS) return;
    loggedAt.set(source, time);
    const reason = error instanceof Error ? error.message : String(error);
    options.log.warn({ source, reason }, 'market source skipped');
  }

  async function quote(): Promise<MarketQuote | null> {
    for (const [name, read] of [
      ['DexScreener', options.sources.dexScreener],
      ['GeckoTerminal', options.sources.geckoTerminal],
    ] as const) {
      try {
        return await read(options.mint);
      } catch (error) {
        skip(name, error);
      }
    }
    return null;
  }

  async function readShared(): Promise<boolean> {
    if (!options.shared || !options.sharedKey) return false;
    try {
      const text = await options.shared.get(options.sharedKey);
      const stored = text ? (JSON.parse(text) as { snapshot?: unknown; fetchedAt?: unknown } | null) : null;
      // Another instance wrote it, but it is checked like an upstream answer: a bad one is refreshed over.
      const snapshot = parseMarketSnapshot(stored?.snapshot);
      const fetchedAt = stored?.fetchedAt;
      if (!snapshot || typeof fetchedAt !== 'number' || !Number.isFinite(fetchedAt)) return false;
      if (fetchedAt > now() || now() - fetchedAt >= options.freshMs) return false;
      last = { snapshot, fetchedAt };
      return true;
    } catch (error) {
      skip('Redis', error);
      return false;
    }
  }

  async function refresh(): Promise<void> {
    // Another instance may have refreshed it already.
    if (await readShared()) return;
    const found = await quote();
    if (!found) return;
    const { poolAddress, ...figures } = found;
    let sparkline: [number, number][] = [];
    if (poolAddress) {
      sparkline = await options.sources.candles(poolAddress).catch((error: unknown) => {
        skip('GeckoTerminal candles', error);
        return [];
      });
    }
    const fetchedAt = now();
    last = { snapshot: { ...figures, sparkline, updatedAt: new Date(fetchedAt).toISOString() }, fetchedAt };
    if (options.shared && options.sharedKey) {
      await options.shared
        .set(options.sharedKey, JSON.stringify(last), 'PX', options.staleMs)
        .catch((error: unknown) => skip('Redis', error));
    }
  }

  function refreshOnce(): Promise<void> {
    if (!inFlight) lastAttemptAt = now();
    inFlight ??= refresh()
      .catch((error: unknown) => skip('market refresh', error))
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  function usable(): MarketSnapshot | null {
    return last && now() - last.fetchedAt < options.staleMs ? last.snapshot : null;
  }

  /** due says whether upstream should be asked now: the answer is not fresh, and no attempt is recent. */
  const due = () =>
    (!last || now() - last.fetchedAt >= options.freshMs) && now() - lastAttemptAt >= retryAfterMs;

  function cached(): MarketSnapshot | null {
    if (due()) void refreshOnce();
    return usable();
  }

  return {
    cached,
    async current() {
      const atHand = cached();
      if (atHand) return atHand;
      // Nothing usable: wait for the attempt running now (this caller's, or a recent one's).
      if (inFlight) await inFlight;
      return usable();
    },
  };
}
