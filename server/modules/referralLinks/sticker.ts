import QRCode from 'qrcode';
import type { AppContext } from '../../platform/context.ts';
import { Problem, Unprocessable } from '../../platform/http/problem.ts';
import { uploadBlob } from '../storage/index.ts';
import { assetUrl } from '../catalog/index.ts';
import { findLinkOrFail, type LinkRow } from './service.ts';

/**
 * Stickers of referral links (issue 12): a locally rendered PNG checked here (signature, IHDR first, pixel
 * limits; the `sticker` blob purpose adds its 2 MiB limit and the magic-byte check), stored as a public blob,
 * its public asset URL attached to the link. And the link's QR code, for printing without a design tool.
 */
export const STICKER_MIN_PX = 64;
export const STICKER_MAX_PX = 4096;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const InvalidPng = (detail: string) => new Problem(400, 'invalid_png', 'Bad request', { detail, errors: [{ path: 'body', message: detail, code: 'invalid_png' }] });

/** The PNG's width and height from its IHDR chunk (which must come first), or a 400 `invalid_png`. */
export function pngDimensions(bytes: Buffer): { width: number; height: number } {
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(SIGNATURE)) throw InvalidPng('is not a PNG (bad signature)');
  if (bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw InvalidPng('is not a PNG (no IHDR chunk first)');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export async function attachSticker(app: AppContext, linkId: string, bytes: Buffer, uploadedBy: string | null): Promise<LinkRow> {
  const knex = app.db.knex;
  await findLinkOrFail(knex, linkId);
  const { width, height } = pngDimensions(bytes);
  for (const [side, px] of [['width', width], ['height', height]] as const) {
    if (px < STICKER_MIN_PX || px > STICKER_MAX_PX) {
      throw Unprocessable('sticker_dimensions', `A sticker is ${STICKER_MIN_PX} to ${STICKER_MAX_PX} pixels on each side.`, [
        { path: 'body', message: `${side} ${px} px is outside ${STICKER_MIN_PX}–${STICKER_MAX_PX}`, code: 'sticker_dimensions' },
      ]);
    }
  }
  const blob = await uploadBlob(app.storage, { purpose: 'sticker', contentType: 'image/png', body: bytes, originalFilename: null, uploadedByAccountId: uploadedBy, field: 'body' });
  await knex('referral_links')
    .where({ id: linkId })
    .update({ sticker_blob_id: blob.id, sticker_url: `${app.config.publicApiUrl}${assetUrl(blob.key)}`, updated_at: knex.fn.now() });
  return findLinkOrFail(knex, linkId);
}

/** The link's `/go/{slug}` URL as an SVG QR code (error correction M). */
export async function linkQrSvg(app: AppContext, linkId: string): Promise<string> {
  const link = await findLinkOrFail(app.db.knex, linkId);
  return QRCode.toString(`${app.config.publicSiteUrl}/go/${link.slug}`, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
