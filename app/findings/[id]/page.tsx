import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { FindingDetail } from '@/components/findings/finding-detail';
import { findDetailedFinding } from '@/server/services/get-report';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const finding = await findDetailedFinding(id);
  return { title: finding ? `${finding.check} ${finding.title}` : 'Finding not found' };
}

export default async function FindingPage({ params }: Props) {
  const { id } = await params;
  const finding = await findDetailedFinding(id);
  if (!finding) notFound();
  return <FindingDetail finding={finding} />;
}
