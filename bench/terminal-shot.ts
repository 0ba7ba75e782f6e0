/**
 * Renders a terminal capture (tmux capture-pane -e: text with ANSI SGR colour codes) into an
 * HTML page and screenshots it with Chromium (playwright-core), so a CLI's real output can be
 * shown in the docs.
 *
 *   npx tsx bench/terminal-shot.ts <capture.ansi> <out.png> [--title "…"]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const BASIC = ['#1e1e1e', '#e5534b', '#57ab5a', '#c69026', '#539bf5', '#b083f0', '#39c5cf', '#d0d7de'];
const BRIGHT = ['#768390', '#ff938a', '#6bc46d', '#daaa3f', '#6cb6ff', '#dcbdfb', '#56d4dd', '#ffffff'];

function xterm256(n: number): string {
  if (n < 8) return BASIC[n] ?? '#fff';
  if (n < 16) return BRIGHT[n - 8] ?? '#fff';
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const c = (x: number) => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${c(Math.floor(i / 36))},${c(Math.floor(i / 6) % 6)},${c(i % 6)})`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ANSI SGR → spans with inline styles; other escape sequences are dropped. */
export function ansiToHtml(text: string): string {
  let fg: string | undefined;
  let bg: string | undefined;
  let bold = false;
  let dim = false;
  let out = '';
  const open = () => {
    const style = [fg ? `color:${fg}` : '', bg ? `background:${bg}` : '', bold ? 'font-weight:700' : '', dim ? 'opacity:.65' : ''].filter(Boolean).join(';');
    return style ? `<span style="${style}">` : '<span>';
  };
  const parts = text.split(/(\x1b\[[0-9;?]*[A-Za-z])/);
  out += open();
  for (const part of parts) {
    const m = /^\x1b\[([0-9;?]*)([A-Za-z])$/.exec(part);
    if (!m) {
      out += escapeHtml(part);
      continue;
    }
    if (m[2] !== 'm') continue;
    const codes = (m[1] || '0').split(';').map(Number);
    for (let i = 0; i < codes.length; i += 1) {
      const c = codes[i] ?? 0;
      if (c === 0) [fg, bg, bold, dim] = [undefined, undefined, false, false];
      else if (c === 1) bold = true;
      else if (c === 2) dim = true;
      else if (c === 22) [bold, dim] = [false, false];
      else if (c >= 30 && c <= 37) fg = BASIC[c - 30];
      else if (c >= 90 && c <= 97) fg = BRIGHT[c - 90];
      else if (c === 39) fg = undefined;
      else if (c >= 40 && c <= 47) bg = BASIC[c - 40];
      else if (c === 49) bg = undefined;
      else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
        const colour = xterm256(codes[i + 2] ?? 7);
        if (c === 38) fg = colour;
        else bg = colour;
        i += 2;
      } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
        const colour = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
        if (c === 38) fg = colour;
        else bg = colour;
        i += 4;
      }
    }
    out += `</span>${open()}`;
  }
  return `${out}</span>`;
}

export async function renderTerminal(ansi: string, outPng: string, title: string, columns = 120): Promise<void> {
  const html = `<!doctype html><meta charset="utf-8"><style>
    body { margin: 0; background: #2d333b; padding: 24px; font-family: 'DejaVu Sans Mono', 'Noto Sans Mono', monospace; }
    .win { background: #1c2128; border-radius: 10px; box-shadow: 0 8px 30px rgba(0,0,0,.45); width: ${columns}ch; overflow: hidden; }
    .bar { background: #373e47; color: #adbac7; font: 13px sans-serif; padding: 8px 12px; display: flex; gap: 8px; align-items: center; }
    .dot { width: 12px; height: 12px; border-radius: 50%; display: inline-block; }
    pre { margin: 0; padding: 14px 16px; color: #d0d7de; font-size: 14px; line-height: 1.35; font-family: inherit; white-space: pre; }
  </style><div class="win"><div class="bar"><span class="dot" style="background:#ff5f57"></span><span class="dot" style="background:#febc2e"></span><span class="dot" style="background:#28c840"></span>&nbsp;${escapeHtml(title)}</div><pre>${ansiToHtml(ansi.replace(/\s+$/, ''))}</pre></div>`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 400 }, deviceScaleFactor: 1 });
    await page.setContent(html);
    await page.locator('.win').screenshot({ path: outPng });
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { title: { type: 'string', default: 'terminal' } } });
  const [input, output] = positionals;
  if (!input || !output) throw new Error('usage: terminal-shot.ts <capture.ansi> <out.png> [--title …]');
  await renderTerminal(fs.readFileSync(input, 'utf8'), output, values.title ?? 'terminal');
}
