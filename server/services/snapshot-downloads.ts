import 'server-only';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { findingsCsvChunks } from '@/lib/compliance/findings-csv';
import type { SnapshotPart } from '@/lib/compliance/snapshot-api';
import { describeProblems } from '@/lib/compliance/verify-bundle';
import { renderReportHtml } from '@/lib/report/render-html';
import { renderReportMarkdown } from '@/lib/report/render-markdown';
import { reportJsonChunks } from '@/lib/report/report-json';
import { ApiError } from '@/server/http/api-errors';
import { verifyBundleBytes } from '@/server/compliance/read-bundle';
import { TOOL_VERSION } from '@/server/compliance/tool-version';
import { bundleToBytes, makeBundle } from '@/server/compliance/write-bundle';
import { getAnalysis } from './get-report';
import { storedBundle } from './snapshots';

export interface Download {
  body: Uint8Array | string;
  contentType: string;
  fileName: string;
}

const PART_FILE: Record<SnapshotPart, { entry?: string; extension: string; contentType: string }> = {
  bundle: { extension: 'tar', contentType: 'application/x-tar' },
  html: { entry: ENTRY.html, extension: 'html', contentType: 'text/html; charset=utf-8' },
  csv: { entry: ENTRY.findingsCsv, extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  markdown: { entry: ENTRY.markdown, extension: 'md', contentType: 'text/markdown; charset=utf-8' },
  json: { entry: ENTRY.report, extension: 'json', contentType: 'application/json' },
};

const safeName = (text: string) => text.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'cluster';

/** One part of a stored snapshot, taken from its bundle (which must still verify). */
export function storedSnapshotPart(id: string, part: SnapshotPart): Download {
  const { record, bytes } = storedBundle(id);
  const file = PART_FILE[part];
  const fileName = `dra-posture-${safeName(record.sourceName)}-${id}.${file.extension}`;
  const result = verifyBundleBytes(bytes);
  if (!result.ok) throw new ApiError('invalid_snapshot', `stored snapshot ${id} does not verify: ${describeProblems(result.problems).join('; ')}`);
  const body: Uint8Array | string = file.entry ? result.entries.get(file.entry)! : bytes;
  return { body, contentType: file.contentType, fileName };
}

/** One part for the current source, made now (the bundle is not stored). */
export async function currentSourcePart(part: SnapshotPart): Promise<Download> {
  const { state, report } = await getAnalysis();
  const file = PART_FILE[part];
  const stamp = new Date().toISOString();
  const fileName = `dra-posture-${safeName(report.source.name)}-${stamp.replace(/[:.]/g, '-')}.${file.extension}`;
  let body: Uint8Array | string;
  switch (part) {
    case 'bundle':
      body = bundleToBytes(await makeBundle(state, { report, createdAt: stamp }));
      break;
    case 'html':
      body = renderReportHtml(report, { generatedAt: stamp, toolVersion: TOOL_VERSION });
      break;
    case 'csv':
      body = [...findingsCsvChunks(report)].join('');
      break;
    case 'markdown':
      body = renderReportMarkdown(report);
      break;
    case 'json':
      body = `${[...reportJsonChunks(report)].join('\n')}\n`;
      break;
  }
  return { body, contentType: file.contentType, fileName };
}

export function downloadResponse(d: Download): Response {
  return new Response(typeof d.body === 'string' ? d.body : new Blob([d.body as Uint8Array<ArrayBuffer>]), {
    headers: {
      'Content-Type': d.contentType,
      'Content-Disposition': `attachment; filename="${d.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
    },
  });
}
