/** Headless chromium's arguments for a screenshot of `page` (a file) at device scale 1 into `out`. */
export function chromiumScreenshotArgs(page: string, width: number, height: number, out: string): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--hide-scrollbars',
    '--force-device-scale-factor=1',
    `--window-size=${width},${height}`,
    `--screenshot=${out}`,
    `file://${page}`,
  ];
}
