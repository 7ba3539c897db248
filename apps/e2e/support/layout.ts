// Measurements of what the owner sees: text drawn over other text, and boxes
// that cover one another.
import type { Locator, Page } from '@playwright/test';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Two pieces of text drawn over each other: their words and where. */
export interface TextOverlap {
  a: string;
  b: string;
  box: Box;
}

/** The common part of two boxes, or null when they do not meet. */
export function intersection(a: Box, b: Box): Box | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * Every pair of text pieces on the page whose drawn boxes overlap. Each text
 * node is measured line by line (Range.getClientRects), cut to what its
 * scrolling or clipping ancestors let show (a scrolled-away list row is not
 * drawn), and skipped when it is not visible (display, visibility, opacity,
 * the 1-px boxes of screen-reader-only text). Two lines of one text node are
 * not compared (a tight line height lets glyph boxes of one paragraph touch),
 * and a pair counts only when the overlap is more than 2 px wide and a
 * quarter of the smaller line high: a label drawn over a date, not two
 * neighbours sharing an edge pixel.
 */
export async function textOverlaps(page: Page): Promise<TextOverlap[]> {
  return page.evaluate(() => {
    type Rect = { x: number; y: number; width: number; height: number };
    const meet = (a: Rect, b: Rect): Rect | null => {
      const x = Math.max(a.x, b.x);
      const y = Math.max(a.y, b.y);
      const right = Math.min(a.x + a.width, b.x + b.width);
      const bottom = Math.min(a.y + a.height, b.y + b.height);
      return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
    };
    const clipOf = (element: Element): Rect | null => {
      let clip: Rect | null = { x: -1e6, y: -1e6, width: 2e6, height: 2e6 };
      for (let node: Element | null = element; node && clip; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.clip !== 'auto') {
          const r = node.getBoundingClientRect();
          clip = meet(clip, { x: r.x, y: r.y, width: r.width, height: r.height });
        }
      }
      return clip;
    };
    const pieces: { node: number; text: string; rect: Rect }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let index = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode(), index++) {
      const text = node.textContent?.trim() ?? '';
      const element = node.parentElement;
      if (!text || !element) continue;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const clip = clipOf(element);
      if (!clip) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const line of Array.from(range.getClientRects())) {
        const shown = meet(clip, { x: line.x, y: line.y, width: line.width, height: line.height });
        if (shown && shown.width > 1 && shown.height > 1) pieces.push({ node: index, text: text.slice(0, 60), rect: shown });
      }
    }
    const overlaps: { a: string; b: string; box: Rect }[] = [];
    for (let i = 0; i < pieces.length; i++) {
      for (let j = i + 1; j < pieces.length; j++) {
        const a = pieces[i];
        const b = pieces[j];
        if (a.node === b.node) continue;
        const box = meet(a.rect, b.rect);
        if (box && box.width > 2 && box.height > Math.min(a.rect.height, b.rect.height) / 4) overlaps.push({ a: a.text, b: b.text, box });
      }
    }
    return overlaps;
  });
}

/** The box of each visible element the locator finds. */
export async function boxesOf(locator: Locator): Promise<{ name: string; box: Box }[]> {
  const found: { name: string; box: Box }[] = [];
  for (const element of await locator.all()) {
    if (!(await element.isVisible())) continue;
    const box = await element.boundingBox();
    if (!box) continue;
    const name = (await element.getAttribute('aria-label')) ?? (await element.innerText()).trim();
    found.push({ name, box });
  }
  return found;
}
