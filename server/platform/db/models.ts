import { RecordModel } from './model.ts';

/** Table `idempotency_keys`. */
export class IdempotencyKey extends RecordModel {
  static override tableName = 'idempotency_keys';
  static override get idColumn() {
    return ["route","key_hash"];
  }
  route!: string;
  keyHash!: Buffer;
  requestHash!: Buffer;
  responseStatus!: number;
  responseBody!: string;
  createdAt!: Date;
}

/** Table `rate_limits`. */
export class RateLimitRow extends RecordModel {
  static override tableName = 'rate_limits';
  static override get idColumn() {
    return "key";
  }
  key!: string;
  points!: number;
  expire!: string | null;
}

/** Table `sealing_keys`: the database's own keys, one per purpose (server/platform/auth/tokens.ts). */
export class SealingKey extends RecordModel {
  static override tableName = 'sealing_keys';
  static override get idColumn() {
    return "purpose";
  }
  purpose!: string;
  secret!: Buffer;
  createdAt!: Date;
}
