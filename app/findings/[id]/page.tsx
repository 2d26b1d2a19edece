import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { FindingDetail } from '@/components/findings/finding-detail';
import { getAnalysis } from '@/server/services/get-report';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const finding = (await getAnalysis()).findingsById.get(id);
  return { title: finding ? `${finding.check} ${finding.title}` : 'Finding not found' };
}

export default async function FindingPage({ params }: Props) {
  const { id } = await params;
  const finding = (await getAnalysis()).findingsById.get(id);
  if (!finding) notFound();
  return <FindingDetail finding={finding} />;
}
