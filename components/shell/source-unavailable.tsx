import Link from 'next/link';

/** In place of a page whose data the cluster source could not give (the shell's banner says so too). */
export function SourceUnavailable({ title, message }: { title: string; message: string }) {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <div role="status" className="mt-6 rounded-lg border border-amber-200 bg-amber-50 px-5 py-4" data-testid="source-unavailable">
        <p className="text-sm font-semibold text-amber-900">Nothing to show: {message}</p>
        <p className="mt-1 text-sm text-amber-900">
          Fix the source and reload, or{' '}
          <Link href="/sources" className="font-medium underline">
            choose another source
          </Link>
          .
        </p>
      </div>
    </>
  );
}
