import { seed } from '../../../seed/index.ts';
import { startTestServer, SUPERUSER_TOKEN, type TestServer } from '../../helpers/server.ts';
import type { Config } from '../../../server/config.ts';

/**
 * A test server with the demo venue (the seeder, over the API) and a small published knowledge base in English
 * and Vietnamese (through the admin API): what the assistant's specs ask questions about.
 */
export const SITE = 'https://venue.example';

export const KNOWLEDGE = [
  { topic: 'dress-code', tags: ['policy', 'dress-code'], en: ['Dress code', 'Smart casual. Please avoid beachwear and flip-flops.'], vi: ['Trang phục', 'Lịch sự, thoải mái. Vui lòng không mặc đồ đi biển hoặc dép lê.'] },
  { topic: 'cancellation', tags: ['policy', 'cancellation', 'refund'], en: ['Cancellation and refunds', 'Cancel up to 48 hours before the show for a full refund. Later cancellations are not refunded.'], vi: ['Hủy vé và hoàn tiền', 'Hủy trước giờ diễn 48 giờ được hoàn tiền toàn bộ. Hủy sau thời điểm đó không được hoàn tiền.'] },
  { topic: 'children', tags: ['children', 'family'], en: ['Children', 'Children from 4 are welcome at Lotus Tales; Jazz After Dark is for adults only.'], vi: ['Trẻ em', 'Trẻ từ 4 tuổi được chào đón tại Chuyện hoa sen; Jazz về đêm chỉ dành cho người lớn.'] },
  { topic: 'dietary', tags: ['dietary', 'vegetarian', 'allergies'], en: ['Dietary options', 'Vegetarian menus are available; tell us about allergies when booking.'], vi: ['Chế độ ăn', 'Có thực đơn chay; vui lòng báo dị ứng khi đặt chỗ.'] },
  { topic: 'parking', tags: ['parking', 'arrival'], en: ['Parking', 'Motorbike parking is free at the entrance; cars park at the public garage next door.'], vi: ['Gửi xe', 'Gửi xe máy miễn phí tại cổng; ô tô gửi tại bãi xe công cộng bên cạnh.'] },
  { topic: 'contact', tags: ['contact', 'location'], en: ['Contact and location', 'We are at 12 Dong Khoi, District 1, Ho Chi Minh City. Hotline 028 1234 5678.'], vi: ['Liên hệ và địa chỉ', 'Địa chỉ: 12 Đồng Khởi, Quận 1, TP.HCM. Hotline 028 1234 5678.'] },
  { topic: 'private-events', tags: ['private-events', 'groups'], en: ['Private events', 'The whole house can be hired for 20 to 120 guests, with dinner and a show of your choice.'], vi: ['Sự kiện riêng', 'Có thể thuê trọn nhà hát cho 20 đến 120 khách, kèm bữa tối và chương trình tùy chọn.'] },
];

export async function startAssistantServer(config: Partial<Config> = {}): Promise<TestServer> {
  const server = await startTestServer({ config: { publicSiteUrl: SITE, ...config } });
  await seed({ baseUrl: server.baseUrl, superuserToken: SUPERUSER_TOKEN, passwords: { admin: 'admin-password-1234', marketing: 'marketing-password-1234', staff: 'staff-password-1234' }, catalog: 'always' });
  const headers = { 'x-api-token': SUPERUSER_TOKEN };
  for (const doc of KNOWLEDGE) {
    for (const locale of ['en', 'vi'] as const) {
      const [title, body] = doc[locale];
      const created = await server.request('POST', '/api/ai/knowledge', { headers, body: { topic: doc.topic, locale, title, body, tags: doc.tags } });
      if (created.status !== 201) throw new Error(`knowledge ${doc.topic}/${locale}: ${created.status} ${created.text}`);
      const published = await server.request('POST', `/api/ai/knowledge/${created.body.id}/publish`, { headers });
      if (published.status !== 200) throw new Error(`publish ${doc.topic}/${locale}: ${published.status} ${published.text}`);
    }
  }
  return server;
}
