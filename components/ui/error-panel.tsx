'use client';

/** An error shown in place of the content that failed, with a retry. The message is text only. */
export function ErrorPanel({ title = 'Something went wrong', message, onRetry }: { title?: string; message?: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-5 py-4">
      <p className="text-sm font-semibold text-red-900">{title}</p>
      {message && <p className="mt-1 break-words text-sm text-red-800">{message}</p>}
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-3 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-900 hover:bg-red-100"
        >
          Try again
        </button>
      )}
    </div>
  );
}
