import { RecordModel } from '../../platform/db/model.ts';

/** Table `meta_capi_events`. */
export class MetaCapiEvent extends RecordModel {
  static override tableName = 'meta_capi_events';
  id!: string;
  eventName!: string;
  eventId!: string;
  source!: string;
  status!: string;
  httpStatus!: number | null;
  fbtraceId!: string | null;
  eventsReceived!: number | null;
  errorMessage!: string | null;
  attempt!: number;
  startedAt!: Date;
  finishedAt!: Date;
  createdAt!: Date;
}

/** Table `meta_capi_outbox`. */
export class MetaCapiOutboxEntry extends RecordModel {
  static override tableName = 'meta_capi_outbox';
  static override jsonAttributes = ['payload'];
  id!: string;
  eventName!: string;
  eventId!: string;
  source!: string;
  payload!: unknown;
  createdAt!: Date;
}
