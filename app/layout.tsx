import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { ViewerProvider } from '@/components/auth/viewer-context';
import { QueryProvider } from '@/components/providers/query-provider';
import { AppShell } from '@/components/shell/app-shell';
import { currentViewer } from '@/server/auth/viewer-service';
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
  // proxy.ts let only signed-in viewers through, except to public pages (sign-in): those get no shell
  // and no cluster data. A review that fails here also leaves only the bare page.
  const viewer = await currentViewer(await headers()).catch(() => undefined);
  if (!viewer) {
    return (
      <html lang="en">
        <body className="min-h-screen bg-slate-50 font-sans">
          <main id="main" className="px-6">
            {children}
          </main>
        </body>
      </html>
    );
  }
  const loaded = await getShellInfo().then(
    (info) => ({ info, failure: undefined }),
    (error: unknown) => ({ info: null, failure: sourceFailureMessage(error) }),
  );
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <ViewerProvider viewer={viewer}>
          <QueryProvider>
            <AppShell info={loaded.info} failure={loaded.failure}>
              {children}
            </AppShell>
          </QueryProvider>
        </ViewerProvider>
      </body>
    </html>
  );
}
