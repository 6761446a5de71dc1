import { PageHeading } from '../components/page-states';

/** ComingNextPage stands in for a page the console does not have yet, saying so plainly. */
export function ComingNextPage({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeading>{title}</PageHeading>
      <div role="status" className="mt-6 rounded-lg border border-royal-600 bg-royal-900 p-4 text-gray-200">
        <p className="font-semibold">Coming next</p>
        <p className="mt-1">{what}</p>
        <p className="mt-2 text-gray-300">Until then, the CLI does this: `npm run cli -- --help`.</p>
      </div>
    </>
  );
}
