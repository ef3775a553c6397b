import type { AppContext } from '../../platform/context.ts';
import { Problem } from '../../platform/http/problem.ts';
import { findLinkOrFail } from './queries.ts';

/**
 * Stickers of referral links (issue 12): the PNG checks of a sticker upload (commands/uploadReferralLinkSticker.ts),
 * and the link's QR code, for printing without a design tool.
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

/** The link's `/go/{slug}` URL as an SVG QR code (error correction M). */
export async function linkQrSvg(app: Pick<AppContext, 'config'>, linkId: string): Promise<string> {
  const link = await findLinkOrFail(linkId);
  // qrcode is loaded with the first sticker, not at start.
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(`${app.config.publicSiteUrl}/go/${link.slug}`, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
