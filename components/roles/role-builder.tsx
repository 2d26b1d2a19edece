'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { checkInput } from '@/lib/role-builder/check-input';
import { CustomRuleError, parseCustomRules } from '@/lib/personas/custom-rules';
import type { BuilderOptions, BuildRequestBody, RoleBuildResponse } from '@/lib/role-builder/dto';
import { PERSONAS } from '@/lib/personas/registry';
import { PERSONA_IDS, type BuildInput, type PersonaId } from '@/lib/role-builder/types';
import { Panel } from '@/components/ui/panel';
import { WorkStatus, rbacObjectsText } from './work-status';
import { Field, INPUT, PRIMARY, SECONDARY } from './field';
import { postJson } from '@/components/query/fetch-json';
import { ReviewPanel } from './review-panel';
import { STEPS, WizardSteps } from './wizard-steps';

type IdentityKind = 'ServiceAccount' | 'User' | 'Group';

/** The guided builder: persona → identity → drivers → scope → review; the server builds and validates. */
export function RoleBuilder({ options }: { options: BuilderOptions }) {
  const [step, setStep] = useState(0);
  const [reachable, setReachable] = useState(0);
  const [persona, setPersona] = useState<PersonaId>('node-local-driver');
  const [kind, setKind] = useState<IdentityKind>('ServiceAccount');
  const [saNamespace, setSaNamespace] = useState('');
  const [saName, setSaName] = useState('');
  const [subjectName, setSubjectName] = useState('');
  const [drivers, setDrivers] = useState('');
  const [customRules, setCustomRules] = useState('');
  const [namespace, setNamespace] = useState('');
  const [review, setReview] = useState<RoleBuildResponse>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const p = PERSONAS[persona];
  const content = useRef<HTMLDivElement>(null);
  const moved = useRef(false);

  // After a step change, keyboard and screen-reader users land on the new step's heading.
  useEffect(() => {
    if (!moved.current) return;
    const heading = content.current?.querySelector('h2');
    if (heading instanceof HTMLElement) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    }
  }, [step]);

  const body: BuildRequestBody = useMemo(() => {
    const identity = kind === 'ServiceAccount' ? { kind, namespace: saNamespace.trim(), name: saName.trim() } : { kind, name: subjectName.trim() };
    const out: BuildRequestBody = { persona, identity, drivers: drivers.split(/[\s,]+/).filter(Boolean) };
    if (namespace.trim()) out.namespace = namespace.trim();
    if (persona === 'custom') out.customRules = customRules;
    return out;
  }, [persona, kind, saNamespace, saName, subjectName, drivers, namespace, customRules]);

  // The same checks the server makes, per step, so mistakes show where they are made.
  const problems = useMemo(() => {
    let rules: BuildInput['customRules'];
    const out: string[] = [];
    if (persona === 'custom') {
      try {
        rules = parseCustomRules(customRules);
      } catch (e) {
        if (e instanceof CustomRuleError) out.push(`customRules: ${e.message}`);
      }
    }
    const identity = body.identity.kind === 'ServiceAccount' ? { ...body.identity, create: true } : body.identity;
    return [...out, ...checkInput({ persona, identity, drivers: body.drivers, namespace: body.namespace, customRules: rules })];
  }, [body, persona, customRules]);
  const stepProblems = (i: number) =>
    problems.filter((m) =>
      i === 1 ? m.startsWith('identity') : i === 2 ? m.startsWith('drivers') || m.startsWith('customRules') : i === 3 ? m.startsWith('namespace') : false,
    );

  const preview = useMemo(() => {
    try {
      const rules = persona === 'custom' ? parseCustomRules(customRules) : undefined;
      const identity = body.identity.kind === 'ServiceAccount' ? { ...body.identity, create: true } : body.identity;
      return p.rules({ persona, identity, drivers: body.drivers, namespace: body.namespace, customRules: rules });
    } catch {
      return { cluster: [], namespaced: [] };
    }
  }, [p, persona, body, customRules]);
  const effectiveNs = body.namespace ?? (body.identity.kind === 'ServiceAccount' ? body.identity.namespace : '');

  async function go(next: number) {
    if (next > step || next === STEPS.length - 1) {
      const blocking = [1, 2, 3].filter((i) => i < next).flatMap(stepProblems);
      if (blocking.length > 0) {
        setError(blocking.join('; '));
        return;
      }
    }
    setError(undefined);
    if (next === STEPS.length - 1) {
      setBusy(true);
      try {
        setReview(await postJson<RoleBuildResponse>('/api/v1/role-builder/build', body));
      } catch (e) {
        setError((e as Error).message);
        setBusy(false);
        return;
      }
      setBusy(false);
    }
    moved.current = true;
    setStep(next);
    setReachable((r) => Math.max(r, next));
  }

  return (
    <div>
      <WizardSteps current={step} reachable={reachable} onSelect={(i) => void go(i)} />
      <div ref={content}>
        {step === 0 && (
          <Panel
            id="step-persona"
            title="1. Who needs access?"
            description="Pick the component or person the role is for. Each persona grants only what that job needs."
          >
            <fieldset>
              <legend className="sr-only">Persona</legend>
              <div className="grid gap-3 md:grid-cols-2">
                {PERSONA_IDS.map((id) => (
                  <label
                    key={id}
                    className="flex cursor-pointer gap-3 rounded-md border border-slate-200 p-3 hover:bg-slate-50 has-[:checked]:border-teal-600 has-[:checked]:bg-teal-50/50"
                  >
                    <input type="radio" name="persona" value={id} checked={persona === id} onChange={() => setPersona(id)} className="mt-1 accent-teal-700" />
                    <span>
                      <span className="block text-sm font-medium text-slate-900">{PERSONAS[id].title}</span>
                      <span className="block text-xs text-slate-600">{PERSONAS[id].summary}</span>
                      <span className="mt-1 block font-mono text-[11px] text-slate-500">{id}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          </Panel>
        )}
        {step === 1 && (
          <Panel
            id="step-identity"
            title="2. Which identity gets the role?"
            description={
              p.serviceAccountOnly
                ? `${p.title}: only a ServiceAccount works (its pod-bound token names the node).`
                : 'A ServiceAccount (created by the bundle if it does not exist yet), a user or a group.'
            }
          >
            <fieldset className="mb-4">
              <legend className="mb-2 text-sm font-medium text-slate-700">Kind</legend>
              <div className="flex flex-wrap gap-4">
                {(['ServiceAccount', 'User', 'Group'] as const).map((k) => (
                  <label key={k} className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="radio"
                      name="identity-kind"
                      value={k}
                      checked={kind === k}
                      onChange={() => setKind(k)}
                      disabled={k !== 'ServiceAccount' && p.serviceAccountOnly}
                      className="accent-teal-700"
                    />
                    {k}
                  </label>
                ))}
              </div>
            </fieldset>
            {kind === 'ServiceAccount' ? (
              <div className="grid gap-4 md:grid-cols-2">
                <Field id="sa-namespace" label="Namespace">
                  <input
                    id="sa-namespace"
                    className={INPUT}
                    value={saNamespace}
                    onChange={(e) => setSaNamespace(e.target.value)}
                    list="known-namespaces"
                    autoComplete="off"
                  />
                </Field>
                <Field id="sa-name" label="ServiceAccount name" hint="An existing service account is reused; a new one is created by the bundle.">
                  <input
                    id="sa-name"
                    aria-describedby="sa-name-hint"
                    className={INPUT}
                    value={saName}
                    onChange={(e) => setSaName(e.target.value)}
                    list="known-service-accounts"
                    autoComplete="off"
                  />
                </Field>
                <datalist id="known-namespaces">
                  {options.namespaces.map((n) => (
                    <option key={n} value={n} />
                  ))}
                </datalist>
                <datalist id="known-service-accounts">
                  {options.serviceAccounts
                    .filter((s) => s.startsWith(`${saNamespace}/`))
                    .map((s) => (
                      <option key={s} value={s.slice(s.indexOf('/') + 1)} />
                    ))}
                </datalist>
              </div>
            ) : (
              <Field
                id="subject-name"
                label={`${kind} name`}
                hint={kind === 'Group' ? 'As your authenticator reports it (e.g. an OIDC group).' : 'As your authenticator reports it.'}
              >
                <input
                  id="subject-name"
                  aria-describedby="subject-name-hint"
                  className={INPUT}
                  value={subjectName}
                  onChange={(e) => setSubjectName(e.target.value)}
                  autoComplete="off"
                />
              </Field>
            )}
          </Panel>
        )}
        {step === 2 && (
          <Panel
            id="step-drivers"
            title="3. Drivers"
            description={
              p.needsDrivers
                ? 'The DRA driver names this identity serves: they scope resourceclaims/driver (resourceNames) so it can write status for its own driver only.'
                : `${p.title} does not need driver names.`
            }
          >
            <div className="space-y-4">
              <Field
                id="drivers"
                label={`Driver names${p.needsDrivers ? '' : ' (optional)'}`}
                hint={`Separate several with commas.${options.drivers.length ? ` In this cluster: ${options.drivers.join(', ')}.` : ''}`}
              >
                <input
                  id="drivers"
                  aria-describedby="drivers-hint"
                  className={INPUT}
                  value={drivers}
                  onChange={(e) => setDrivers(e.target.value)}
                  list="known-drivers"
                  autoComplete="off"
                  placeholder="gpu.example.com"
                />
              </Field>
              <datalist id="known-drivers">
                {options.drivers.map((d) => (
                  <option key={d} value={d} />
                ))}
              </datalist>
              {persona === 'custom' && (
                <Field
                  id="custom-rules"
                  label="Rules, one per line"
                  hint="VERBS RESOURCE[.GROUP][/SUBRESOURCE] [NAMES] # why — e.g. get,list resourceclaims.resource.k8s.io # read claims. Wildcards are refused."
                >
                  <textarea
                    id="custom-rules"
                    aria-describedby="custom-rules-hint"
                    rows={6}
                    className={`${INPUT} font-mono`}
                    value={customRules}
                    onChange={(e) => setCustomRules(e.target.value)}
                  />
                </Field>
              )}
            </div>
          </Panel>
        )}
        {step === 3 && (
          <Panel
            id="step-scope"
            title="4. Scope"
            description="Rules that one namespace is enough for go into a Role; cluster-scoped resources, all-namespace access and cluster-scope checks need a ClusterRole."
          >
            <div className="space-y-4">
              <Field
                id="scope-namespace"
                label="Namespace for namespaced rules"
                hint={
                  body.identity.kind === 'ServiceAccount'
                    ? `Defaults to the service account’s namespace (${body.identity.namespace || 'not set'}).`
                    : 'Required for personas with namespaced rules.'
                }
              >
                <input
                  id="scope-namespace"
                  aria-describedby="scope-namespace-hint"
                  className={INPUT}
                  value={namespace}
                  onChange={(e) => setNamespace(e.target.value)}
                  list="known-namespaces-scope"
                  autoComplete="off"
                />
              </Field>
              <datalist id="known-namespaces-scope">
                {options.namespaces.map((n) => (
                  <option key={n} value={n} />
                ))}
              </datalist>
              <ul className="space-y-1 text-sm text-slate-700">
                <li>
                  <strong>ClusterRole</strong> + ClusterRoleBinding: {preview.cluster.length} rule(s)
                  {preview.cluster.length > 0 && ` (${preview.cluster.map((r) => (r.rule.resources ?? []).join(', ')).join('; ')})`}
                </li>
                <li>
                  <strong>Role</strong> + RoleBinding{effectiveNs ? ` in ${effectiveNs}` : ''}: {preview.namespaced.length} rule(s)
                  {preview.namespaced.length > 0 && ` (${preview.namespaced.map((r) => (r.rule.resources ?? []).join(', ')).join('; ')})`}
                </li>
              </ul>
            </div>
          </Panel>
        )}
        {step === 4 && review && <ReviewPanel review={review} request={body} onReviewChange={setReview} />}
      </div>

      {error && (
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {error}
        </p>
      )}
      <div className="mt-4 flex gap-3">
        {step > 0 && (
          <button type="button" className={SECONDARY} onClick={() => void go(step - 1)}>
            Back
          </button>
        )}
        {step < STEPS.length - 1 && (
          <button type="button" className={PRIMARY} disabled={busy} aria-describedby="build-status" onClick={() => void go(step + 1)}>
            {busy ? 'Building…' : step === STEPS.length - 2 ? 'Build and review' : 'Next'}
          </button>
        )}
      </div>
      <div className="mt-2">
        <WorkStatus
          id="build-status"
          busy={busy}
          text={`Building the role and validating it against ${rbacObjectsText(options.rbacObjects)}: the buttons come back when the review is ready…`}
        />
      </div>
    </div>
  );
}
