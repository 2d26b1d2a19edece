import 'server-only';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { findingsCsvChunks } from '@/lib/compliance/findings-csv';
import type { SnapshotPart } from '@/lib/compliance/snapshot-api';
import { describeProblems } from '@/lib/compliance/verify-bundle';
import { renderReportHtmlChunks } from '@/lib/report/render-html';
import { renderReportMarkdownChunks } from '@/lib/report/render-markdown';
import { reportJsonTextChunks } from '@/lib/report/report-json';
import { ApiError } from '@/server/http/api-errors';
import { streamBody } from '@/server/http/stream-body';
import { verifyBundleBytes } from '@/server/compliance/read-bundle';
import { TOOL_VERSION } from '@/server/compliance/tool-version';
import { makeBundle } from '@/server/compliance/write-bundle';
import { getAnalysis } from './get-report';
import { storedBundle } from './snapshots';

export interface Download {
  /** Bytes at hand (a stored snapshot's part), or pieces rendered as the response is sent. */
  body: Uint8Array | Iterable<Uint8Array | string>;
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
  const body = file.entry ? result.entries.get(file.entry)! : bytes;
  return { body, contentType: file.contentType, fileName };
}

/** One part for the current source, made now (the bundle is not stored) and rendered as it is sent. */
export async function currentSourcePart(part: SnapshotPart): Promise<Download> {
  const { state, report } = await getAnalysis();
  const file = PART_FILE[part];
  const stamp = new Date().toISOString();
  const fileName = `dra-posture-${safeName(report.source.name)}-${stamp.replace(/[:.]/g, '-')}.${file.extension}`;
  let body: Iterable<Uint8Array | string>;
  switch (part) {
    case 'bundle':
      body = { [Symbol.iterator]: (await makeBundle(state, { report, createdAt: stamp })).pieces };
      break;
    case 'html':
      body = renderReportHtmlChunks(report, { generatedAt: stamp, toolVersion: TOOL_VERSION });
      break;
    case 'csv':
      body = findingsCsvChunks(report);
      break;
    case 'markdown':
      body = renderReportMarkdownChunks(report);
      break;
    case 'json':
      body = reportJsonTextChunks(report);
      break;
  }
  return { body, contentType: file.contentType, fileName };
}

function* blocksOf(bytes: Uint8Array, blockBytes = 1 << 20): Generator<Uint8Array> {
  for (let i = 0; i < bytes.byteLength; i += blockBytes) yield bytes.subarray(i, i + blockBytes);
}

export function downloadResponse(d: Download): Response {
  // Bytes at hand are sent as views of themselves (a stored bundle is hundreds of megabytes: no copy).
  return new Response(streamBody(d.body instanceof Uint8Array ? blocksOf(d.body) : d.body), {
    headers: {
      'Content-Type': d.contentType,
      'Content-Disposition': `attachment; filename="${d.fileName}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
    },
  });
}
