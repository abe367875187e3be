// What the browser tests share: the browser, the page's frame counter, its read-back exports.
import { chromium } from 'playwright-core';

export function launchBrowser(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--enable-unsafe-swiftshader', ...extraArgs],
  });
}

// Frames counted by the page itself; the exports exist before the wasm is instantiated,
// so first wait for the runtime (Module.calledRun). `page` may be a Page or a Frame.
export async function waitFrames(page, n) {
  const frames = () => (window.Module?.calledRun ? Module._gpuplan_frame_count() : 0);
  const start = await page.evaluate(frames);
  await page.waitForFunction(([f, target]) => (0, eval)(f)() >= target, [`(${frames})`, start + n], { timeout: 30000 });
}

// A string the page returns from one of its gpuplan_* exports.
export const readBack = (page, fn) => page.evaluate((name) => Module.UTF8ToString(Module['_' + name]()), fn);
