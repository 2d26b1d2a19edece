import Link from 'next/link';
import { PageHeader } from '@/components/ui/panel';

export default function NotFound() {
  return (
    <>
      <PageHeader title="Not found" description="There is nothing at this address in the dashboard." />
      <Link href="/" className="text-sm font-medium text-teal-800 hover:underline">
        Back to the overview
      </Link>
    </>
  );
}
