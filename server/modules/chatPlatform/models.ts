import type { AssistantChannel } from '../../assistant/index.ts';
import { BaseModel } from '../../platform/db/model.ts';

export type TurnSource = 'chat-platform' | 'whatsapp';
export type TurnStatus = 'QUEUED' | 'GENERATING' | 'GENERATED' | 'SENDING' | 'SENT' | 'FAILED';

/** Table `chat_turns`: one background chat turn (server/modules/chatPlatform/turns.ts). */
export class ChatTurn extends BaseModel {
  static override tableName = 'chat_turns';
  source!: TurnSource;
  channel!: AssistantChannel;
  recipient!: string;
  externalMessageId!: string | null;
  locale!: string;
  status!: TurnStatus;
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
