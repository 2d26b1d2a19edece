import type { Metadata } from 'next';
import Link from 'next/link';
import { WhenAllowed } from '@/components/auth/when-allowed';
import { RoleBuilder } from '@/components/roles/role-builder';
import { PageHeader } from '@/components/ui/panel';
import { builderOptions } from '@/server/role-builder/role-builder-service';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

export const metadata: Metadata = { title: 'Role builder' };
export const dynamic = 'force-dynamic';

export default async function RolesPage() {
  const loaded = await loadForPage(builderOptions);
  if (!loaded.ok) return <SourceUnavailable title="Least-privilege role builder" message={loaded.message} />;
  const options = loaded.data;
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
      <WhenAllowed action="create simulations" what="build roles">
        <RoleBuilder options={options} />
      </WhenAllowed>
    </>
  );
}
