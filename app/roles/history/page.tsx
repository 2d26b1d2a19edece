import type { Metadata } from 'next';
import Link from 'next/link';
import { RoleHistory } from '@/components/roles/role-history';
import { PageHeader } from '@/components/ui/panel';

export const metadata: Metadata = { title: 'Role approvals' };
export const dynamic = 'force-dynamic';

export default function RoleHistoryPage() {
  return (
    <>
      <PageHeader
        title="Role approvals"
        description="Who approved or rejected which role bundle, when, and against which cluster state."
        actions={
          <Link href="/roles" className="text-sm font-medium text-teal-800 underline">
            Role builder
          </Link>
        }
      />
      <RoleHistory />
    </>
  );
}
