import type { Metadata } from 'next';
import Link from 'next/link';
import { RoleBuilder } from '@/components/roles/role-builder';
import { PageHeader } from '@/components/ui/panel';
import { builderOptions } from '@/server/role-builder/role-builder-service';

export const metadata: Metadata = { title: 'Role builder' };
export const dynamic = 'force-dynamic';

export default async function RolesPage() {
  const options = await builderOptions();
  return (
    <>
      <PageHeader
        title="Least-privilege role builder"
        description="Answer five questions; get the minimal RBAC (and admission policy) for a DRA component or a person, with a reason for every rule, validated by the engine against this cluster, ready to approve."
        actions={
          <Link href="/roles/history" className="text-sm font-medium text-teal-800 underline">
            Decision history
          </Link>
        }
      />
      <RoleBuilder options={options} />
    </>
  );
}
