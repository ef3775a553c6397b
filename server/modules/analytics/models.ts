import { RecordModel } from '../../platform/db/model.ts';

export type MetaSource = 'BROWSER' | 'SERVER';
export type MetaSendStatus = 'SENT' | 'RETRYING' | 'FAILED';

/** Table `meta_capi_events`: one audit row per Meta send attempt (no user data). */
export class MetaCapiEvent extends RecordModel {
  static override tableName = 'meta_capi_events';
  /** `bigserial`: a string from pg. */
  id!: string;
  eventName!: string;
  eventId!: string;
  source!: MetaSource;
  status!: MetaSendStatus;
  httpStatus!: number | null;
  fbtraceId!: string | null;
  eventsReceived!: number | null;
  errorMessage!: string | null;
  attempt!: number;
  startedAt!: Date;
  finishedAt!: Date;
  createdAt!: Date;
}

/** Table `meta_capi_outbox`: what one queued event needs (Meta's event object, hashed user data included) until it is done. */
export class MetaCapiOutboxEntry extends RecordModel {
  static override tableName = 'meta_capi_outbox';
  static override jsonAttributes = ['payload'];
  id!: string;
  eventName!: string;
  eventId!: string;
  source!: MetaSource;
  /** Meta's event object (`data[0]`). */
  payload!: Record<string, unknown>;
  createdAt!: Date;
}
