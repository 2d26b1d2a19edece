import 'server-only';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { CHROMIUM_FLAGS, DEFAULT_CHROMIUM_PATH } from '@/lib/compliance/chromium-flags';
import type { TarEntryInput } from '@/lib/compliance/tar';
import { renderReportHtmlChunks } from '@/lib/report/render-html';
import type { Report } from '@/lib/analysis/types';
import { TOOL_VERSION } from './tool-version';

// The printable HTML report as PDF, printed by headless Chromium (Debian's, as the browser tests
// use). The HTML has no scripts and a CSP without network access, so printing it runs nothing.

/** report.pdf for a bundle: the HTML report (same time and version as the bundle's) printed. */
export async function pdfEntry(report: Report, createdAt: string): Promise<TarEntryInput> {
  return { name: ENTRY.pdf, chunks: [await htmlToPdf(renderReportHtmlChunks(report, { generatedAt: createdAt, toolVersion: TOOL_VERSION }))] };
}

export const CHROMIUM_PATH_ENV = 'CHROMIUM_PATH';
const TIMEOUT_MS = 120_000;

export class PdfError extends Error {
  override name = 'PdfError';
}

/** `html` as one string or in pieces (a large cluster's report is written to Chromium's input file piece by piece). */
export async function htmlToPdf(html: string | Iterable<string>): Promise<Uint8Array> {
  const chromium = process.env[CHROMIUM_PATH_ENV] || DEFAULT_CHROMIUM_PATH;
  const dir = await mkdtemp(join(tmpdir(), 'dra-posture-pdf-'));
  try {
    const input = join(dir, 'report.html');
    const output = join(dir, 'report.pdf');
    await writeFile(input, html);
    const args = [
      '--headless',
      ...CHROMIUM_FLAGS,
      `--user-data-dir=${join(dir, 'profile')}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${output}`,
      pathToFileURL(input).href,
    ];
    await new Promise<void>((resolve, reject) => {
      execFile(chromium, args, { timeout: TIMEOUT_MS, maxBuffer: 4 << 20 }, (error, _stdout, stderr) => {
        if (error)
          reject(
            new PdfError(
              `Chromium (${chromium}) could not print the report: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not installed' : String(stderr).trim().split('\n').pop() || error.message}`,
            ),
          );
        else resolve();
      });
    });
    const pdf = new Uint8Array(
      await readFile(output).catch(() => {
        throw new PdfError('Chromium exited without writing the PDF');
      }),
    );
    if (pdf.byteLength < 5 || new TextDecoder().decode(pdf.subarray(0, 5)) !== '%PDF-') throw new PdfError('Chromium wrote something that is not a PDF');
    return pdf;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Pages in a PDF: its `/Type /Page` objects (not `/Pages`). */
export function countPdfPages(pdf: Uint8Array): number {
  const text = new TextDecoder('latin1').decode(pdf);
  return (text.match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
}
