import { chromium } from '@playwright/test';
const base = process.env.BASE ?? 'http://127.0.0.1:3005';
const paths = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log('console', m.type(), m.text().slice(0, 300)); });
page.on('pageerror', (e) => console.log('pageerror', e.message));
for (const p of paths) {
  await page.goto(base + p, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  const name = p.replace(/[^a-z0-9]+/gi, '_') || 'root';
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  console.log('shot', p, name);
}
await browser.close();
