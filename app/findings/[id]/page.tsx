import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { FindingDetail } from '@/components/findings/finding-detail';
import { findDetailedFinding } from '@/server/services/get-report';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const loaded = await loadForPage(() => findDetailedFinding(id));
  const finding = loaded.ok ? loaded.data : undefined;
  return { title: finding ? `${finding.check} ${finding.title}` : loaded.ok ? 'Finding not found' : 'Finding' };
}

export default async function FindingPage({ params }: Props) {
  const { id } = await params;
  const loaded = await loadForPage(() => findDetailedFinding(id));
  if (!loaded.ok) return <SourceUnavailable title="Finding" message={loaded.message} />;
  const finding = loaded.data;
  if (!finding) notFound();
  return <FindingDetail finding={finding} />;
}
