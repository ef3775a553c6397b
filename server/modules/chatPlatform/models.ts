import { BaseModel } from '../../platform/db/model.ts';

/** Table `chat_turns`. */
export class ChatTurn extends BaseModel {
  static override tableName = 'chat_turns';
  source!: string;
  channel!: string;
  recipient!: string;
  externalMessageId!: string | null;
  locale!: string;
  status!: string;
  guestText!: string | null;
  replyText!: string | null;
  attempts!: number;
  invalidLinks!: number;
  errorCode!: string | null;
  errorDetail!: string | null;
  receivedAt!: Date;
  generationStartedAt!: Date | null;
  generatedAt!: Date | null;
  sendStartedAt!: Date | null;
  sentAt!: Date | null;
  finishedAt!: Date | null;
}
