'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useState, type FormEvent, type MouseEvent } from 'react';
import { explorerCanIQuery, pages, parseExplorerState, type ExplorerMode } from '@/lib/api/routes';
import { canIQuery, whoCanQuery } from '@/components/query/queries';
import { cn } from '@/components/ui/cn';
import { ErrorPanel } from '@/components/ui/error-panel';
import { Panel } from '@/components/ui/panel';
import { Skeleton } from '@/components/ui/skeleton';
import type { SubjectRef } from '@/lib/k8s/types';
import type { ExplorerExample } from '@/lib/view/explorer-examples';
import { CanIResult } from './access-results';
import { WhoCanResults } from './who-can-results';

const VERBS = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
  'impersonate',
  'associated-node:update',
  'arbitrary-node:update',
  'escalate',
  'bind',
  '*',
];
const RESOURCES = [
  'resourceclaims',
  'resourceclaims/status',
  'resourceclaims/binding',
  'resourceclaims/driver',
  'resourceclaimtemplates',
  'resourceslices',
  'deviceclasses',
  'devicetaintrules',
  'nodes',
  'nodes/status',
  'namespaces',
  'pods',
  'pods/exec',
  'secrets',
  'users',
  'groups',
  'serviceaccounts',
  '/healthz',
];

const field = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm';

/** The form's text fields for a question read from the URL. */
function formFromState(asked: ReturnType<typeof parseExplorerState>) {
  return {
    verb: asked.access.verb,
    // A subresource given on its own in the URL is shown as TYPE/SUB: the form has no hidden fields.
    resource: asked.access.subresource ? `${asked.access.resource}/${asked.access.subresource}` : asked.access.resource,
    namespace: asked.access.namespace ?? '',
    name: asked.access.name ?? '',
    user: asked.user,
    groups: asked.groups.join(', '),
    node: asked.node,
  };
}

export function AccessExplorer({ examples }: { examples: ExplorerExample[] }) {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const asked = useMemo(() => parseExplorerState(params), [params]);

  const [mode, setMode] = useState<ExplorerMode>(asked.mode);
  const [form, setForm] = useState(() => formFromState(asked));
  // Follow the URL when it changes from outside the form (example links, back/forward): state is
  // adjusted while rendering, as React recommends, rather than in an effect after a stale render.
  const [followed, setFollowed] = useState(asked);
  if (followed !== asked) {
    setFollowed(asked);
    setMode(asked.mode);
    setForm(formFromState(asked));
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const sp = new URLSearchParams({ mode });
    for (const k of ['verb', 'resource', 'namespace', 'name'] as const) if (form[k].trim()) sp.set(k, form[k].trim());
    if (mode === 'can-i') {
      if (form.user.trim()) sp.set('user', form.user.trim());
      if (form.groups.trim()) sp.set('groups', form.groups.trim());
      if (form.node.trim()) sp.set('node', form.node.trim());
    }
    router.replace(`${pathname}?${sp.toString()}`, { scroll: false });
  };

  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  return (
    <div className="grid gap-6 lg:grid-cols-[24rem_1fr]">
      <div className="space-y-6">
        <Panel id="question" title="Question">
          <form onSubmit={submit} className="space-y-3" aria-label="Access question">
            <div role="radiogroup" aria-label="Question type" className="grid grid-cols-2 rounded-md bg-slate-100 p-1 text-sm">
              {(['who-can', 'can-i'] as const).map((m) => (
                <label
                  key={m}
                  className={cn(
                    'cursor-pointer rounded px-3 py-1.5 text-center font-medium',
                    mode === m ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600',
                  )}
                >
                  <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} className="sr-only" />
                  {m === 'who-can' ? 'Who can…' : 'Can this identity…'}
                </label>
              ))}
            </div>
            {mode === 'can-i' && (
              <>
                <label className="block">
                  <span className="mb-1 block text-xs font-medium text-slate-600">User (username)</span>
                  <input className={field} value={form.user} onChange={set('user')} required placeholder="system:serviceaccount:ns:name" autoComplete="off" />
                </label>
                <label className="block">
                  <span className="mb-1 block text-xs font-medium text-slate-600">Groups (comma-separated, optional)</span>
                  <input className={field} value={form.groups} onChange={set('groups')} placeholder="group-a, group-b" autoComplete="off" />
                </label>
                <label className="block">
                  <span className="mb-1 block text-xs font-medium text-slate-600">Token bound to node (service accounts, optional)</span>
                  <input className={field} value={form.node} onChange={set('node')} placeholder="node name" autoComplete="off" />
                </label>
              </>
            )}
            <div className="grid grid-cols-2 gap-3">
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-slate-600">Verb</span>
                <input className={field} value={form.verb} onChange={set('verb')} list="verbs" required placeholder="update" autoComplete="off" />
              </label>
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-slate-600">Resource</span>
                <input
                  className={field}
                  value={form.resource}
                  onChange={set('resource')}
                  list="resources"
                  required
                  placeholder="resourceclaims/status"
                  autoComplete="off"
                />
              </label>
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-slate-600">Namespace</span>
                <input className={field} value={form.namespace} onChange={set('namespace')} placeholder="all" autoComplete="off" />
              </label>
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-slate-600">Name</span>
                <input className={field} value={form.name} onChange={set('name')} placeholder="any" autoComplete="off" />
              </label>
            </div>
            <datalist id="verbs">
              {VERBS.map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
            <datalist id="resources">
              {RESOURCES.map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
            <p className="text-xs text-slate-500">
              Resource is kubectl&apos;s TYPE[.GROUP], TYPE/SUBRESOURCE, or a path such as /healthz. An empty namespace asks across all namespaces.
            </p>
            <button type="submit" className="w-full rounded-md bg-teal-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-teal-800">
              Ask
            </button>
          </form>
        </Panel>
        <Panel id="examples" title="Examples" description="Questions about this source’s own nodes, claims and identities">
          <ul className="space-y-1.5 text-sm">
            {examples.map((ex) => (
              <li key={ex.label}>
                <Link href={pages.explorer(ex.params)} scroll={false} className="text-teal-800 hover:underline">
                  {ex.label}
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
      <Panel
        className="self-start"
        id="answer"
        title="Answer"
        description={
          asked.mode === 'who-can'
            ? 'Every subject allowed, with the binding, role and rule (or authorizer) that allows it'
            : 'Decided like kube-apiserver: system:masters, then Node, then RBAC'
        }
      >
        {asked.ready ? (
          asked.mode === 'who-can' ? (
            <WhoCanAnswer state={asked} />
          ) : (
            <CanIAnswer state={asked} />
          )
        ) : (
          <p className="text-sm text-slate-500">Ask a question, or pick an example.</p>
        )}
      </Panel>
    </div>
  );
}

function Loading() {
  return (
    <div role="status" className="space-y-2">
      <span className="sr-only">Asking the authorizer…</span>
      <Skeleton className="h-6 w-2/3" />
      <Skeleton className="h-40" />
    </div>
  );
}

/** The explorer's URL for this question with the simulator filled by the write, sent by `subject`. */
function simulateHref(state: ReturnType<typeof parseExplorerState>, subject: SubjectRef): string {
  const params: Record<string, string | undefined> = { mode: 'who-can', verb: state.access.verb, resource: state.access.resource };
  for (const k of ['subresource', 'namespace', 'name'] as const) params[k] = state.access[k];
  Object.assign(params, { simKind: subject.kind, simName: subject.name, simNamespace: subject.namespace });
  return `${pages.explorer(params)}#simulate-heading`;
}

function WhoCanAnswer({ state }: { state: ReturnType<typeof parseExplorerState> }) {
  const { data, error, isPending } = useQuery(whoCanQuery(state.access));
  if (isPending) return <Loading />;
  if (error) return <ErrorPanel title="The question could not be answered" message={error.message} />;
  // Keyed by the question: a new answer starts unfiltered, on its first page.
  return (
    <div onClickCapture={followSimulateLink}>
      <WhoCanResults key={JSON.stringify(state.access)} data={data} simulateHref={(s) => simulateHref(state, s)} />
    </div>
  );
}

/**
 * "Simulate this write" changes the address in place instead of rendering the page again: the
 * simulator sees the row in the address at once, fetches that write and waits for it (a page render
 * on a large cluster arrived after the reader had pressed Simulate, and replaced the form). In the
 * capture phase, so the link's own navigation is skipped; other clicks (new tab, other links) go on.
 */
function followSimulateLink(e: MouseEvent<HTMLElement>) {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const link = (e.target as Element).closest('a');
  if (!link) return;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin || url.pathname !== window.location.pathname || !url.searchParams.has('simKind')) return;
  e.preventDefault();
  // Next.js keeps useSearchParams in step with the native history.
  window.history.pushState(null, '', `${url.pathname}${url.search}${url.hash}`);
  document.getElementById(url.hash.slice(1))?.scrollIntoView();
}

function CanIAnswer({ state }: { state: ReturnType<typeof parseExplorerState> }) {
  const { data, error, isPending } = useQuery(canIQuery(explorerCanIQuery(state)));
  if (isPending) return <Loading />;
  if (error) return <ErrorPanel title="The question could not be answered" message={error.message} />;
  return <CanIResult data={data} />;
}
