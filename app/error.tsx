'use client';

import { ErrorPanel } from '@/components/ui/error-panel';

// Never shows the error's stack or server details: production builds send only a digest.
export default function Error({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ErrorPanel
      title="This view could not be loaded"
      message="The cluster source could not be read or analysed. Check the server log, then try again."
      onRetry={reset}
    />
  );
}
