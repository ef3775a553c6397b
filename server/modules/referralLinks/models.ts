import { BaseModel, RecordModel } from '../../platform/db/model.ts';

/** Table `referral_links`. */
export class ReferralLink extends BaseModel {
  static override tableName = 'referral_links';
  slug!: string;
  destination!: string;
  channel!: string;
  label!: string | null;
  status!: string;
  partnerId!: string;
  codeId!: string | null;
  stickerBlobId!: string | null;
  stickerUrl!: string | null;
}

/** Table `referral_clicks`. */
export class ReferralClick extends RecordModel {
  static override tableName = 'referral_clicks';
  static override get idColumn() {
    return ["link_id","bucket"];
  }
  linkId!: string;
  bucket!: Date;
  clickCount!: number;
}

/** Table `referral_signing_keys`. */
export class ReferralSigningKey extends RecordModel {
  static override tableName = 'referral_signing_keys';
  id!: number;
  secret!: Buffer;
}
