import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/providers/query-provider';
import { AppShell } from '@/components/shell/app-shell';
import { getShellInfo } from '@/server/services/shell-info';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'dra-posture', template: '%s · dra-posture' },
  description: 'Security posture of Kubernetes Dynamic Resource Allocation',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: the CSP nonce (proxy.ts) and the cluster data are per request.
  await connection();
  const info = await getShellInfo().catch(() => null);
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <QueryProvider>
          <AppShell info={info}>{children}</AppShell>
        </QueryProvider>
      </body>
    </html>
  );
}
