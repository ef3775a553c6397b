import { Model } from 'objection';
import { BaseModel, RecordModel } from '../../platform/db/model.ts';
import type { Schema } from '../../platform/http/handler.ts';
import { ReferralCode } from '../referralCodes/index.ts';

export type Channel = Schema<'Channel'>;
export type LinkStatus = Schema<'LinkStatus'>;

/** Table `referral_links`: a partner's `/go/{slug}` link; `code` (eager-loaded) is the partner's code it applies. */
export class ReferralLink extends BaseModel {
  static override tableName = 'referral_links';
  slug!: string;
  destination!: string;
  channel!: Channel;
  label!: string | null;
  status!: LinkStatus;
  partnerId!: string;
  codeId!: string | null;
  stickerBlobId!: string | null;
  stickerUrl!: string | null;
  code?: ReferralCode | null;

  static override get relationMappings() {
    return {
      code: { relation: Model.BelongsToOneRelation, modelClass: ReferralCode, join: { from: 'referral_links.code_id', to: 'referral_codes.id' } },
    };
  }
}

/** Table `referral_clicks`: clicks per link and hour (nothing about the visitor). */
export class ReferralClick extends RecordModel {
  static override tableName = 'referral_clicks';
  static override get idColumn() {
    return ["link_id","bucket"];
  }
  linkId!: string;
  bucket!: Date;
  clickCount!: number;
}

/** Table `referral_signing_keys`: the one random key (`id` 1) attribution tokens are signed with. */
export class ReferralSigningKey extends RecordModel {
  static override tableName = 'referral_signing_keys';
  id!: number;
  secret!: Buffer;
}
