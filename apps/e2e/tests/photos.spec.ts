// Spec 2.9 (secure photo vault), 4 and 5 (photo upload) and 8 (photo toasts).
import { deflateSync } from 'node:zlib';
import type { Page, Route } from '@playwright/test';
import { expect, panel, signInByApi, test, toasts } from '../support/fixtures.ts';

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid width x height RGB PNG: a diagonal red/yellow/cyan pattern. */
function makePng(width = 24, height = 24): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const rows: number[] = [];
  const colours = [
    [255, 77, 77],
    [255, 210, 31],
    [56, 225, 255],
  ];
  for (let y = 0; y < height; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x++) rows.push(...colours[Math.floor((x + y) / 4) % 3]!);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The direct upload PUT to the storage URL (same origin in embedded mode, S3 in distributed mode). */
function isStoragePut(route: Route): boolean {
  const request = route.request();
  return request.method() === 'PUT' && !new URL(request.url()).pathname.startsWith('/api/');
}

async function openDialog(page: Page) {
  await panel(page, 'SECURE PHOTO VAULT').getByRole('button', { name: 'Upload Photo' }).click();
  const dialog = page.getByRole('dialog', { name: 'UPLOAD PHOTO' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('photo vault', () => {
  test('uploads a real PNG through the dialog with a progress bar, and lists it', async ({ page, owner, snapshot }, testInfo) => {
    await signInByApi(page, owner, '/journal');
    const vault = panel(page, 'SECURE PHOTO VAULT');
    await expect(vault).toBeVisible();
    const before = (await (await page.request.get('/api/photos')).json()) as unknown[];

    // Hold the storage PUT until the screenshot of the progress bar is taken.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let puts = 0;
    await page.route(
      () => true,
      async (route) => {
        if (!isStoragePut(route)) return route.fallback();
        puts += 1;
        await held;
        await route.continue();
      },
    );

    const dialog = await openDialog(page);
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    await expect(upload).toBeDisabled();
    await dialog.getByLabel('Image file').setInputFiles({
      name: `vault-${testInfo.project.name}.png`,
      mimeType: 'image/png',
      buffer: makePng(),
    });
    // No automatic start.
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);
    await expect(upload).toBeEnabled();
    await upload.click();

    const bar = dialog.getByRole('progressbar');
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuenow', /^\d+$/);
    await expect.poll(() => puts).toBe(1);
    await snapshot('photo-upload-progress');
    release();

    await expect(toasts(page)).toContainText('Photo Uploaded');
    await expect(toasts(page)).toContainText('Your photo has been securely uploaded to the vault.');
    await expect(dialog).toHaveCount(0);
    await page.unrouteAll({ behavior: 'ignoreErrors' });

    const after = (await (await page.request.get('/api/photos')).json()) as { objectPath: string }[];
    expect(after.length).toBe(before.length + 1);
    const newest = after[0]!;
    const grid = vault.getByRole('list', { name: 'Photos' });
    const thumb = grid.locator(`img[src="${newest.objectPath}"]`);
    await expect(thumb).toBeVisible();
    await expect(thumb).toHaveAttribute('loading', 'lazy');
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(24);
    await snapshot('photo-vault');

    // Still listed after a reload (every stored photo, newest first).
    await page.reload();
    await expect(vault.getByRole('list', { name: 'Photos' }).locator('img').first()).toHaveAttribute('src', newest.objectPath);

    await page.setViewportSize({ width: 375, height: 812 });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await snapshot('photo-vault-375');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Remove from view hides it for this visit only.
    const item = vault.getByRole('listitem').filter({ has: page.locator(`img[src="${newest.objectPath}"]`) });
    await item.getByRole('button', { name: 'Remove from view' }).click();
    await expect(item).toHaveCount(0);
    await page.reload();
    await expect(item).toHaveCount(1);

    // Delete asks first, then erases it for good.
    page.once('dialog', (d) => void d.dismiss());
    await item.getByRole('button', { name: 'Delete photo' }).click();
    await expect(item).toHaveCount(1);
    page.once('dialog', (d) => void d.accept());
    await item.getByRole('button', { name: 'Delete photo' }).click();
    await expect(item).toHaveCount(0);
    const remaining = (await (await page.request.get('/api/photos')).json()) as { objectPath: string }[];
    expect(remaining.some((p) => p.objectPath === newest.objectPath)).toBe(false);
  });

  test('a text file renamed .png is refused', async ({ page, owner, snapshot }) => {
    await signInByApi(page, owner, '/journal');
    const before = (await (await page.request.get('/api/photos')).json()) as unknown[];
    const dialog = await openDialog(page);
    await dialog.getByLabel('Image file').setInputFiles({
      name: 'not-a-photo.png',
      mimeType: 'image/png',
      buffer: Buffer.from('This is plain text, not an image.\n'),
    });
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    const precheck = dialog.getByRole('alert');
    if (await upload.isEnabled()) {
      await upload.click();
      await expect(toasts(page)).toContainText('Upload Failed');
      await expect(toasts(page)).toContainText('Failed to secure photo upload. Please try again.');
    } else {
      await expect(precheck).toBeVisible();
    }
    await snapshot('photo-upload-refused');
    const after = (await (await page.request.get('/api/photos')).json()) as unknown[];
    expect(after.length).toBe(before.length);
  });
});
