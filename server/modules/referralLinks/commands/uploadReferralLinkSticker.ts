import type { AppContext } from '../../../platform/context.ts';
import { Unprocessable } from '../../../platform/http/problem.ts';
import { inUnitOfWork } from '../../../platform/unitOfWork.ts';
import { assetUrl } from '../../catalog/index.ts';
import { storeBlob } from '../../storage/index.ts';
import { ReferralLink } from '../models.ts';
import { findLinkOrFail } from '../queries.ts';
import { pngDimensions, STICKER_MAX_PX, STICKER_MIN_PX } from '../sticker.ts';

/**
 * A link's sticker (issue 12): a locally rendered PNG checked here (sticker.ts: signature, IHDR first, pixel
 * limits; the `sticker` blob purpose adds its 2 MiB limit and the magic-byte check), stored as a public blob (the
 * storage module's own write, before this command's unit of work), its public asset URL attached to the link.
 */
export async function uploadReferralLinkSticker(app: AppContext, linkId: string, bytes: Buffer, uploadedBy: string | null): Promise<ReferralLink> {
  await findLinkOrFail(linkId);
  const { width, height } = pngDimensions(bytes);
  for (const [side, px] of [['width', width], ['height', height]] as const) {
    if (px < STICKER_MIN_PX || px > STICKER_MAX_PX) {
      throw Unprocessable('sticker_dimensions', `A sticker is ${STICKER_MIN_PX} to ${STICKER_MAX_PX} pixels on each side.`, [
        { path: 'body', message: `${side} ${px} px is outside ${STICKER_MIN_PX}–${STICKER_MAX_PX}`, code: 'sticker_dimensions' },
      ]);
    }
  }
  const blob = await storeBlob(app.storage, { purpose: 'sticker', contentType: 'image/png', body: bytes, originalFilename: null, uploadedByAccountId: uploadedBy, field: 'body' });
  return inUnitOfWork({ knex: app.db.knex, logger: app.logger }, async ({ trx }) => {
    await ReferralLink.query(trx).findById(linkId).patch({ stickerBlobId: blob.id, stickerUrl: `${app.config.publicApiUrl}${assetUrl(blob.key)}` });
    return findLinkOrFail(linkId, trx);
  });
}
