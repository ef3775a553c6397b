import { BaseModel } from '../../platform/db/model.ts';

/** Table `chat_transcripts`. */
export class ChatTranscript extends BaseModel {
  static override tableName = 'chat_transcripts';
  static override jsonAttributes = ['messages'];
  conversationId!: string | null;
  locale!: string;
  pageUrl!: string | null;
  messages!: unknown;
  messageCount!: number;
  emailMessageId!: string | null;
  startedAt!: Date | null;
}
