'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { SimulateResponse } from '@/lib/api/dto';
import { queryKeys } from '@/lib/api/query-keys';
import { api } from '@/lib/api/routes';
import type { SimulatorPrefill } from '@/lib/view/simulation-prefill';
import { simulateRequestKey } from '@/lib/view/simulate-request-key';
import { fetchJson, postJson } from '@/components/query/fetch-json';
import { cn } from '@/components/ui/cn';
import { ErrorPanel } from '@/components/ui/error-panel';
import { Panel } from '@/components/ui/panel';

type Result = SimulateResponse;

const field = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm';
const code = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 font-mono text-xs shadow-sm';

/** "Would this write be accepted?": the object, who sends it, and every step the API server would take. */
function formOf(p: SimulatorPrefill) {
  return { user: p.user, groups: p.groups, node: p.node, verb: p.verb as string, subresource: p.subresource, object: p.object, old: p.old };
}

/**
 * `prefill` is the write the page was rendered with, for the address whose simulateRequestKey is
 * `prefillFor`. "Simulate this write" changes the address in place; the form then fetches that row's
 * write and stays disabled until it has it: a form showing the previous write could be sent, and the
 * row's write arriving later replaced it and hid the answer (issue #26).
 */
export function WriteSimulator({ prefill: rendered, prefillFor }: { prefill: SimulatorPrefill; prefillFor: string }) {
  const asked = simulateRequestKey(useSearchParams());
  const other = asked !== '' && asked !== prefillFor;
  const fetched = useQuery({
    queryKey: queryKeys.simulatePrefill(asked),
    queryFn: ({ signal }) => fetchJson<SimulatorPrefill>(api.simulatePrefill(asked), signal),
    enabled: other,
    staleTime: Infinity,
  });
  const waiting = other && fetched.isPending;
  const prefill = other && fetched.data ? fetched.data : rendered;
  const [form, setForm] = useState(() => formOf(prefill));
  const [note, setNote] = useState(prefill.note);
  const run = useMutation({ mutationFn: (body: unknown) => postJson<Result>(api.simulate(), body) });
  // A new "simulate this write" (another row, another question) refills the form; a question asked
  // afterwards (the page's own opening write, key '') never overwrites what was typed. Adjusted while rendering, not in an effect.
  const [followed, setFollowed] = useState(prefill.key);
  if (prefill.key && followed !== prefill.key) {
    setFollowed(prefill.key);
    setForm(formOf(prefill));
    setNote(prefill.note);
  }
  // The answer shown belongs to the form it was asked from: a refilled form hides the previous one.
  const [answeredFor, setAnsweredFor] = useState(prefill.key);
  const current = answeredFor === followed;
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setNote('');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (waiting) return;
    setAnsweredFor(followed);
    run.mutate({
      user: form.user,
      groups: form.groups
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
      node: form.node,
      ...(form.verb ? { verb: form.verb } : {}),
      subresource: form.subresource,
      object: form.object,
      old: form.old,
    });
  };

  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[24rem_1fr]">
      <Panel id="simulate" title="Simulate a write" description="Paste the object; nothing is sent to the cluster">
        <form onSubmit={submit} className="space-y-3" aria-label="Write to simulate" aria-busy={waiting}>
          {waiting && (
            <p role="status" className="rounded bg-slate-50 px-3 py-2 text-xs text-slate-700">
              Filling in the row’s write…
            </p>
          )}
          {other && fetched.error && (
            <ErrorPanel title="The row’s write could not be filled in" message={fetched.error.message} onRetry={() => fetched.refetch()} />
          )}
          {note && !waiting && (
            <p className="rounded bg-slate-50 px-3 py-2 text-xs text-slate-700" data-testid="simulate-note">
              {note}
            </p>
          )}
          {/* Disabled while the row's write is on its way: pressing Simulate now would send the previous write. */}
          <fieldset disabled={waiting} className="min-w-0 space-y-3 disabled:opacity-60">
            <label className="block">
              <span className="mb-1 block text-xs font-medium text-slate-600">Sent by (username)</span>
              <input className={field} value={form.user} onChange={set('user')} required autoComplete="off" />
            </label>
            <label className="block">
              <span className="mb-1 block text-xs font-medium text-slate-600">Group memberships, comma-separated (optional)</span>
              <input className={field} value={form.groups} onChange={set('groups')} autoComplete="off" />
            </label>
            <label className="block">
              <span className="mb-1 block text-xs font-medium text-slate-600">Pod token of node (service accounts, optional)</span>
              <input className={field} value={form.node} onChange={set('node')} autoComplete="off" />
            </label>
            <div className="grid grid-cols-2 gap-3">
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-slate-600">Operation (auto: create, or update with a stored object)</span>
                <select className={field} value={form.verb} onChange={set('verb')}>
                  <option value="">auto</option>
                  <option value="create">create</option>
                  <option value="update">update</option>
                  <option value="patch">patch</option>
                  <option value="delete">delete</option>
                </select>
              </label>
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-slate-600">Part (e.g. status)</span>
                <input className={field} value={form.subresource} onChange={set('subresource')} placeholder="status" autoComplete="off" />
              </label>
            </div>
            {/* Labels point at the text areas rather than wrap them: a wrapping label's text would include the pasted YAML. */}
            <div>
              <label htmlFor="simulate-object" className="mb-1 block text-xs font-medium text-slate-600">
                Object (YAML or JSON)
              </label>
              <textarea id="simulate-object" className={code} rows={10} value={form.object} onChange={set('object')} spellCheck={false} required />
            </div>
            <div>
              <label htmlFor="simulate-old" className="mb-1 block text-xs font-medium text-slate-600">
                Stored object, for an update, patch or delete (optional)
              </label>
              <textarea id="simulate-old" className={code} rows={4} value={form.old} onChange={set('old')} spellCheck={false} />
            </div>
            <button type="submit" className="w-full rounded-md bg-teal-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-teal-800">
              Simulate
            </button>
          </fieldset>
        </form>
      </Panel>
      <Panel
        className="self-start"
        id="simulation"
        title="Would it be accepted?"
        description="Impersonation, authorization, NodeRestriction, the checks on the body, then admission policies"
      >
        {run.isPending ? (
          <p role="status" className="text-sm text-slate-500">
            Simulating…
          </p>
        ) : current && run.error ? (
          <div data-testid="simulation-result">
            <ErrorPanel title="The write could not be simulated" message={run.error.message} />
          </div>
        ) : current && run.data ? (
          <SimulationSteps result={run.data} />
        ) : (
          <p className="text-sm text-slate-500">Paste an object and press Simulate.</p>
        )}
      </Panel>
    </div>
  );
}

function SimulationSteps({ result }: { result: Result }) {
  const r = result.request;
  const what = `${r.verb} ${r.group ? `${r.resource}.${r.group}` : r.resource}${r.subresource ? `/${r.subresource}` : ''}${r.namespace ? ` in ${r.namespace}` : ''}`;
  return (
    <div className="space-y-3" aria-live="polite" data-testid="simulation-result">
      <p className={cn('text-base font-semibold', result.allowed ? 'text-teal-800' : result.refusedBy ? 'text-red-800' : 'text-amber-800')}>
        {result.allowed ? 'Accepted' : result.refusedBy ? `Refused by ${result.refusedBy}` : `Unknown: ${result.undecidedBy} could not be decided`}
        <span className="ml-2 text-sm font-normal text-slate-600">
          {what}, decided as {result.decidedAs.name}
        </span>
      </p>
      {result.missing.length > 0 && (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="simulation-missing">
          <p className="font-semibold">Not in the loaded cluster: {result.missing.join(', ')}.</p>
          <p className="mt-0.5 text-xs">The answer is about a cluster that has them; check the names against this source.</p>
        </div>
      )}
      <ol className="space-y-2" aria-label="Steps">
        {result.steps.map((s) => (
          <li key={s.step} className="rounded-md border border-slate-200 px-3 py-2 text-sm">
            <span className={cn('mr-2 font-mono text-xs font-semibold', s.unknown ? 'text-amber-800' : s.allowed ? 'text-teal-800' : 'text-red-800')}>
              {s.unknown ? 'UNKNOWN' : s.allowed ? 'PASS' : 'REFUSED'}
            </span>
            <span className="font-medium text-slate-900">{s.step}</span>
            <p className="mt-1 text-slate-700">{s.reason}</p>
            {(s.uncovered ?? []).length > 0 && (
              <ul className="mt-1 list-disc pl-5 font-mono text-xs text-slate-600">
                {(s.uncovered ?? []).map((rule, i) => (
                  <li key={i}>not held: {JSON.stringify(rule)}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
