/**
 * PATH_LABEL_CASES is how the 404 page names a requested page, from both sides of the page contract: the
 * server reads `url` (the request URL, query included) when it renders 404.html, the page script reads
 * `pathname` (location.pathname) after a client-side navigation; both must show `label`. The server's
 * site-page.test.ts and the site's paths.test.ts each check their side against this one table.
 */
export const PATH_LABEL_CASES: readonly { url: string; pathname: string; label: string }[] = [
  { url: '/royal/treasury', pathname: '/royal/treasury', label: 'royal/treasury' },
  { url: '/no/such?x=1', pathname: '/no/such', label: 'no/such' },
  { url: '//x#top', pathname: '//x', label: 'x' },
  { url: '/royal%20treasury?q=%3C', pathname: '/royal%20treasury', label: 'royal treasury' },
  { url: '/a%20b', pathname: '/a%20b', label: 'a b' },
  { url: '/%3Cimg%3E', pathname: '/%3Cimg%3E', label: '<img>' },
  { url: '/bad%E0%A4%A', pathname: '/bad%E0%A4%A', label: 'bad%E0%A4%A' },
  { url: '/%E0%A4%A', pathname: '/%E0%A4%A', label: '%E0%A4%A' },
  { url: '/', pathname: '/', label: '' },
];
