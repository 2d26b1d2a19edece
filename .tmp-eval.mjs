import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto('http://127.0.0.1:3005' + process.argv[2], { waitUntil: 'networkidle' });
console.log(await page.evaluate(process.argv[3]));
await browser.close();
