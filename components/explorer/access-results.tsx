import type { CanIResponse, WhoCanResponse } from '@/lib/api/dto';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import { RuleSummary } from '@/components/findings/evidence-list';
import { KindLabel, RefText } from '@/components/ui/refs';

export function requestText(r: WhoCanResponse['request']): string {
  if ('path' in r) return `${r.verb} ${r.path}`;
  const res = `${r.resource}${r.group ? `.${r.group}` : ''}${r.subresource ? `/${r.subresource}` : ''}`;
  return `${r.verb} ${res}${r.name ? ` named ${r.name}` : ''}${r.namespace ? ` in namespace ${r.namespace}` : ' (all namespaces / cluster scope)'}`;
}

export function GrantText({ g }: { g: WhoCanGrant }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1 gap-y-1">
      <RefText value={g.binding} />
      <span aria-hidden="true" className="text-slate-400">
        →
      </span>
      <RefText value={g.role} />
      <span className="text-xs text-slate-500">
        rule #{g.ruleIndex}
        {g.aggregatedFrom ? ` (from ${g.aggregatedFrom})` : ''}
      </span>
    </span>
  );
}

export function CanIResult({ data }: { data: CanIResponse }) {
  return (
    <div data-testid="can-i-result" className="space-y-4">
      <div className="flex items-center gap-4">
        <span
          className={
            data.allowed
              ? 'rounded-md bg-slate-900 px-4 py-2 text-2xl font-bold text-white'
              : 'rounded-md bg-slate-100 px-4 py-2 text-2xl font-bold text-slate-700 ring-1 ring-slate-300'
          }
        >
          {data.allowed ? 'yes' : 'no'}
        </span>
        <p className="text-sm text-slate-700">
          <span className="font-mono text-[13px]">{data.user.name}</span> {data.allowed ? 'may' : 'may not'}{' '}
          <span className="font-mono text-[13px]">{requestText(data.request)}</span>
        </p>
      </div>
      {data.warning && <p className="rounded bg-amber-50 px-3 py-2 text-xs text-amber-900">{data.warning}</p>}
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-500">Reason</dt>
        <dd className="break-words text-slate-800">{data.reason}</dd>
        {data.decidedBy && (
          <>
            <dt className="text-slate-500">Decided by</dt>
            <dd className="text-slate-800">
              {data.decidedBy === 'rbac'
                ? 'RBAC'
                : data.decidedBy === 'node'
                  ? 'Node authorizer'
                  : data.decidedBy === 'always-allow'
                    ? 'AlwaysAllow'
                    : 'system:masters'}
            </dd>
          </>
        )}
        <dt className="text-slate-500">Groups</dt>
        <dd className="flex flex-wrap gap-1.5">
          {data.user.groups.map((g) => (
            <span key={g} className="inline-flex items-center">
              <KindLabel kind="Group" />
              <span className="font-mono text-xs">{g}</span>
            </span>
          ))}
        </dd>
      </dl>
      {data.grant && (
        <div className="space-y-2 border-l-2 border-slate-200 pl-4">
          <GrantText g={data.grant} />
          <RuleSummary rule={data.grant.rule} />
        </div>
      )}
    </div>
  );
}
