import type { Metadata } from 'next';
import Link from 'next/link';
import { SignInForm } from '@/components/auth/sign-in-form';
import { authModeFromEnv } from '@/server/auth/auth-config';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const next = typeof params.next === 'string' ? params.next : undefined;
  const on = authModeFromEnv() === 'kubernetes';
  return (
    <div className="mx-auto max-w-lg py-12">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Sign in to dra-posture</h1>
      {on ? (
        <div className="mt-6">
          <SignInForm next={next} ended={params.reason === 'ended'} />
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-700">
          Sign-in is off: this server runs without <code>--auth kubernetes</code>, so everyone who reaches it sees everything.{' '}
          <Link href="/" className="text-teal-700 underline">
            Open the dashboard
          </Link>
        </p>
      )}
    </div>
  );
}
