import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { refName } from '@/lib/view/subjects';
import { cn } from './cn';

// Kubernetes names are attacker-controlled text: always rendered as React text, never as HTML.

const KIND_SHORT: Record<string, string> = {
  ServiceAccount: 'SA',
  User: 'User',
  Group: 'Group',
  ClusterRoleBinding: 'CRB',
  RoleBinding: 'RB',
  ClusterRole: 'CR',
  Role: 'Role',
};

export function KindLabel({ kind, className }: { kind: string; className?: string }) {
  return (
    <abbr
      title={kind}
      className={cn(
        'mr-1.5 inline-block min-w-[2.75rem] rounded bg-slate-100 px-1 py-px text-center text-[10px] font-semibold uppercase tracking-wide text-slate-600 no-underline',
        className,
      )}
    >
      {KIND_SHORT[kind] ?? kind}
    </abbr>
  );
}

export function RefText({ value, kind, className }: { value: ObjectRef | SubjectRef; kind?: boolean; className?: string }) {
  return (
    <span className={cn('inline-flex min-w-0 items-baseline', className)}>
      {kind !== false && <KindLabel kind={value.kind} />}
      <span className="break-all font-mono text-[13px] text-slate-800">{refName(value)}</span>
    </span>
  );
}

export function Mono({ children, className }: { children: React.ReactNode; className?: string }) {
  return <code className={cn('break-all font-mono text-[13px] text-slate-800', className)}>{children}</code>;
}
