import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/providers/query-provider';
import { AppShell } from '@/components/shell/app-shell';
import { getShellInfo } from '@/server/services/shell-info';
import { sourceFailureMessage } from '@/server/http/api-errors';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'dra-posture', template: '%s · dra-posture' },
  description: 'Security posture of Kubernetes Dynamic Resource Allocation',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: the CSP nonce (proxy.ts) and the cluster data are per request.
  await connection();
  const loaded = await getShellInfo().then(
    (info) => ({ info, failure: undefined }),
    (error: unknown) => ({ info: null, failure: sourceFailureMessage(error) }),
  );
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <QueryProvider>
          <AppShell info={loaded.info} failure={loaded.failure}>
            {children}
          </AppShell>
        </QueryProvider>
      </body>
    </html>
  );
}
