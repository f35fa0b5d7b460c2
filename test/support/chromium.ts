/** Headless Debian Chromium for page tests (skipped where it is not installed). */
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export async function launchChromium(): Promise<import('playwright-core').Browser> {
  const { chromium } = await import('playwright-core');
  // Without the background-networking flags Chromium keeps dialing out on a closed network.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
