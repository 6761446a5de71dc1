// `add_context_from_internet`: the top results of a SearXNG instance's JSON API (WEB_SEARCH_URL), which the
// operator chose, so it is fetched directly (not through the guard for caller-chosen URLs).
import { OutboundLimitError, UpstreamError } from '../../lib/errors';

export interface SearchResult {
  title: string;
  url: string;
  content: string;
}

const MAX_RESULTS = 5;
const MAX_SNIPPET = 500;

/** searchResultsOf reads SearXNG's `{results: [{title, url, content}]}`, keeping http(s) URLs only. */
export function searchResultsOf(body: unknown): SearchResult[] {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return [];
  const found: SearchResult[] = [];
  for (const entry of results as Array<Record<string, unknown> | null>) {
    const url = typeof entry?.url === 'string' ? entry.url : '';
    if (!/^https?:\/\//i.test(url)) continue;
    found.push({
      title: typeof entry?.title === 'string' ? entry.title.slice(0, 200) : '',
      url: url.slice(0, 500),
      content: typeof entry?.content === 'string' ? entry.content.slice(0, MAX_SNIPPET) : '',
    });
    if (found.length === MAX_RESULTS) break;
  }
  return found;
}

/** createWebSearch queries `{baseUrl}/search?q=…&format=json` within timeoutMs. */
export function createWebSearch(options: { baseUrl: string; timeoutMs: number }) {
  return async (query: string): Promise<SearchResult[]> => {
    const url = new URL(`${options.baseUrl}/search`);
    url.searchParams.set('q', query.slice(0, 400));
    url.searchParams.set('format', 'json');
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new OutboundLimitError(
          `The web search did not answer within ${options.timeoutMs} ms`,
          'timeout',
        );
      }
      throw new UpstreamError('The web search (WEB_SEARCH_URL) could not be reached');
    }
    if (!response.ok) throw new UpstreamError(`The web search failed (HTTP ${response.status})`);
    return searchResultsOf(await response.json().catch(() => null));
  };
}

/** contextFrom is the results as a block the model can cite by URL. */
export function contextFrom(results: SearchResult[]): string {
  if (results.length === 0) return '';
  const lines = results.map(
    (result, index) => `[${index + 1}] ${result.title}\n${result.url}\n${result.content}`,
  );
  return `Context from a web search (cite the URLs you use):\n\n${lines.join('\n\n')}`;
}
