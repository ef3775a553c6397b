import type { Schemas, VenueClient } from '../sdk/index.ts';
import { all, countsOf, ok, type SeedCounts } from './catalog.ts';
import { DEMO_COMMERCIAL_SETUP, DEMO_OFFERS, DEMO_SHOWS } from './venue.ts';

/**
 * The demo venue's knowledge (issue 10 "Knowledge"): what the assistant answers guests' policy and practical
 * questions from, in English and Vietnamese, created and published through the API. Figures that the commercial
 * setup or the offers already hold (the cancellation window, the booking cut-off, the hold, service charge and
 * VAT, the private-event party sizes, doors) are read from seed/venue.ts, so the two can never disagree.
 */

const setup = DEMO_COMMERCIAL_SETUP;
const privateEvent = DEMO_OFFERS.find((offer) => offer.bookingPath === 'PRIVATE_EVENT')!;
const show = (code: string) => DEMO_SHOWS.find((demo) => demo.code === code)!;
const chronicles = show('SGC');
const lotus = show('LTS');
const jazz = show('JZN');
const cutoffHours = setup.bookingCutoffMinutes / 60;
const vegetarian = DEMO_OFFERS.filter((offer) => offer.items.some((item) => item.code === 'MEAL-VEG'));

export interface DemoKnowledge {
  topic: string;
  locale: 'en' | 'vi';
  title: string;
  tags: string[];
  body: string;
}

const doc = (topic: string, tags: string[], en: { title: string; body: string }, vi: { title: string; body: string }): DemoKnowledge[] => [
  { topic, locale: 'en', tags, ...en },
  { topic, locale: 'vi', tags, ...vi },
];

export const DEMO_KNOWLEDGE: DemoKnowledge[] = [
  ...doc(
    'dress-code',
    ['policy', 'dress-code'],
    {
      title: 'Dress code',
      body: [
        'Smart casual is the rule for every show: a collared shirt or blouse, trousers, a dress or a skirt.',
        '',
        '- Not allowed in the dining room: beachwear, tank tops for men, flip-flops and sports shorts.',
        '- VIP booths: long trousers and closed shoes for gentlemen.',
        '- The hall is air-conditioned (around 23 °C): bring a light layer.',
      ].join('\n'),
    },
    {
      title: 'Trang phục',
      body: [
        'Tất cả các suất diễn áp dụng trang phục lịch sự, thoải mái (smart casual): áo có cổ hoặc áo sơ mi, quần dài, váy hoặc đầm.',
        '',
        '- Không mặc trong phòng ăn: đồ đi biển, áo ba lỗ (nam), dép tông và quần đùi thể thao.',
        '- Bàn VIP: quý ông vui lòng mặc quần dài và giày kín mũi.',
        '- Khán phòng có máy lạnh (khoảng 23 °C): nên mang theo áo khoác mỏng.',
      ].join('\n'),
    },
  ),
  ...doc(
    'children',
    ['policy', 'family', 'children'],
    {
      title: 'Children and families',
      body: [
        `Children are welcome. ${lotus.title.en} is our family show (from four years old); ${chronicles.title.en} suits children from eight; ${jazz.title.en} is for adults only (18+).`,
        '',
        '- Every guest, children included, needs a seat and pays the listed price per guest.',
        '- Children under 12 must sit with an adult of their party.',
        '- The kitchen can prepare a simpler, mild plate for young children: ask for it when you book or contact us.',
        '- Booster seats are available; strollers can be left at the cloakroom.',
      ].join('\n'),
    },
    {
      title: 'Trẻ em và gia đình',
      body: [
        `Chúng tôi chào đón trẻ em. ${lotus.title.vi} là chương trình dành cho gia đình (từ bốn tuổi); ${chronicles.title.vi} phù hợp với trẻ từ tám tuổi; ${jazz.title.vi} chỉ dành cho người lớn (từ 18 tuổi).`,
        '',
        '- Mỗi khách, kể cả trẻ em, cần một chỗ ngồi và trả giá niêm yết theo khách.',
        '- Trẻ dưới 12 tuổi phải ngồi cùng người lớn trong nhóm.',
        '- Bếp có thể chuẩn bị món ăn đơn giản, ít cay cho trẻ nhỏ: vui lòng báo khi đặt chỗ hoặc liên hệ chúng tôi.',
        '- Có ghế nâng cho trẻ; xe đẩy có thể gửi tại quầy giữ đồ.',
      ].join('\n'),
    },
  ),
  ...doc(
    'dietary-options',
    ['dining', 'dietary', 'vegetarian', 'allergies'],
    {
      title: 'Vegetarian, vegan and allergies',
      body: [
        'Our set menus are Vietnamese and contain seafood; the chef’s tasting menu also contains nuts.',
        '',
        `- A vegetarian five-course menu can replace the set menu on every dinner package${vegetarian.length ? ` and is included with ${vegetarian.map((offer) => offer.name.en).join(', ')}` : ''}.`,
        '- Vegan, gluten-free and no-pork dishes can be prepared on request.',
        '- Allergies: tell us when you book (in the notes) or at least 48 hours before the show, so the kitchen can plan. We cannot guarantee a kitchen free of traces of nuts, shellfish or gluten.',
        '- Alcohol-free drinks replace the welcome cocktail or wine on request.',
      ].join('\n'),
    },
    {
      title: 'Món chay, thuần chay và dị ứng',
      body: [
        'Thực đơn set của chúng tôi là món Việt và có hải sản; thực đơn nếm thử của bếp trưởng còn có các loại hạt.',
        '',
        `- Thực đơn chay năm món có thể thay thực đơn set ở mọi gói ăn tối${vegetarian.length ? ` và đã bao gồm trong ${vegetarian.map((offer) => offer.name.vi).join(', ')}` : ''}.`,
        '- Món thuần chay, không gluten và không thịt heo được chuẩn bị theo yêu cầu.',
        '- Dị ứng: vui lòng ghi chú khi đặt chỗ hoặc báo trước giờ diễn ít nhất 48 giờ để bếp chuẩn bị. Chúng tôi không thể đảm bảo bếp hoàn toàn không có dấu vết của hạt, động vật có vỏ hoặc gluten.',
        '- Có đồ uống không cồn thay cho cocktail chào mừng hoặc rượu vang theo yêu cầu.',
      ].join('\n'),
    },
  ),
  ...doc(
    'arrival-time',
    ['arrival', 'doors', 'timing'],
    {
      title: 'When to arrive',
      body: [
        `Doors open ${chronicles.schedule.doorsMinutesBefore} minutes before ${chronicles.title.en} and ${lotus.schedule.doorsMinutesBefore} minutes before ${lotus.title.en} and ${jazz.title.en}. Dinner is served from the moment doors open, so guests with a dinner package should arrive when doors open.`,
        '',
        '- Show-only guests: arrive at least 15 minutes before showtime.',
        '- Latecomers are seated at a suitable moment so the performance is not interrupted; dinner courses already served cannot be held back.',
        `- Online booking closes ${cutoffHours} hours before showtime; after that, call us and we will do our best.`,
      ].join('\n'),
    },
    {
      title: 'Nên đến lúc nào',
      body: [
        `Cửa mở ${chronicles.schedule.doorsMinutesBefore} phút trước ${chronicles.title.vi} và ${lotus.schedule.doorsMinutesBefore} phút trước ${lotus.title.vi} và ${jazz.title.vi}. Bữa tối được phục vụ ngay khi mở cửa, vì vậy khách đặt gói ăn tối nên đến đúng giờ mở cửa.`,
        '',
        '- Khách chỉ xem biểu diễn: vui lòng đến trước giờ diễn ít nhất 15 phút.',
        '- Khách đến muộn sẽ được mời vào chỗ vào thời điểm phù hợp để không làm gián đoạn buổi diễn; các món đã phục vụ không thể giữ lại.',
        `- Đặt chỗ trực tuyến đóng ${cutoffHours} giờ trước giờ diễn; sau đó vui lòng gọi điện, chúng tôi sẽ cố gắng hỗ trợ.`,
      ].join('\n'),
    },
  ),
  ...doc(
    'parking',
    ['location', 'parking', 'transport'],
    {
      title: 'Parking and getting here',
      body: [
        '- Motorbikes: free guarded parking at the main entrance.',
        '- Cars: the public car park of the building next door (paid, open until midnight); our doorman can help with directions.',
        '- Taxi and ride-hailing (Grab, Be, Xanh SM): drop-off and pick-up right at the main entrance.',
        '- We are a ten-minute walk from Nguyễn Huệ walking street.',
      ].join('\n'),
    },
    {
      title: 'Gửi xe và đường đến',
      body: [
        '- Xe máy: giữ xe miễn phí, có bảo vệ, ngay lối vào chính.',
        '- Ô tô: bãi đỗ xe công cộng của tòa nhà bên cạnh (có thu phí, mở cửa đến nửa đêm); nhân viên cửa sẽ hướng dẫn.',
        '- Taxi và xe công nghệ (Grab, Be, Xanh SM): đón và trả khách ngay lối vào chính.',
        '- Cách phố đi bộ Nguyễn Huệ mười phút đi bộ.',
      ].join('\n'),
    },
  ),
  ...doc(
    'cancellation-refund',
    ['policy', 'booking', 'cancellation', 'refund', 'payment'],
    {
      title: 'Cancellation and refund policy',
      body: [
        `You can cancel a booking free of charge up to ${setup.cancellationWindowHours} hours before showtime, with the link in your confirmation e-mail. A paid booking cancelled in time is refunded in full to the original payment method (VNPay refunds usually arrive within 5–7 working days).`,
        '',
        `- Less than ${setup.cancellationWindowHours} hours before showtime, or a no-show: no refund. Contact us and we will try to move you to another date, subject to availability.`,
        '- If we cancel a performance, you are refunded in full automatically, or moved to another date if you prefer.',
        `- A booking not paid online is released after ${setup.holdMinutes} minutes, unless you chose to pay at the box office or by transfer.`,
        `- Prices shown include a ${setup.serviceChargePercent}% service charge and ${setup.vatPercent}% VAT.`,
      ].join('\n'),
    },
    {
      title: 'Chính sách hủy và hoàn tiền',
      body: [
        `Quý khách có thể hủy đặt chỗ miễn phí đến ${setup.cancellationWindowHours} giờ trước giờ diễn bằng đường dẫn trong e-mail xác nhận. Đặt chỗ đã thanh toán và hủy đúng hạn được hoàn tiền đầy đủ về phương thức thanh toán ban đầu (hoàn tiền qua VNPay thường mất 5–7 ngày làm việc).`,
        '',
        `- Hủy trong vòng ${setup.cancellationWindowHours} giờ trước giờ diễn, hoặc không đến: không hoàn tiền. Vui lòng liên hệ, chúng tôi sẽ cố gắng đổi sang ngày khác nếu còn chỗ.`,
        '- Nếu chúng tôi hủy suất diễn, quý khách được hoàn tiền đầy đủ tự động, hoặc đổi sang ngày khác nếu muốn.',
        `- Đặt chỗ chưa thanh toán trực tuyến được giữ ${setup.holdMinutes} phút, trừ khi quý khách chọn trả tại quầy hoặc chuyển khoản.`,
        `- Giá hiển thị đã bao gồm ${setup.serviceChargePercent}% phí phục vụ và ${setup.vatPercent}% VAT.`,
      ].join('\n'),
    },
  ),
  ...doc(
    'private-events',
    ['private-events', 'groups', 'corporate', 'weddings'],
    {
      title: 'Private events and groups',
      body: [
        `The whole house can be booked for a company party, a wedding or a celebration, for ${privateEvent.minGuests} to ${privateEvent.maxGuests} guests: dinner, a drinks package and the show of your choice.`,
        '',
        '- Send us a request on the inquiries page with your preferred date, the number of guests and what you have in mind; our events team answers within one working day.',
        `- Groups larger than a regular booking allows (usually more than ${setup.defaultMaxGuests} guests) also book through the inquiries page.`,
        '- Custom menus, branding, speeches and photo sessions can be arranged.',
      ].join('\n'),
    },
    {
      title: 'Sự kiện riêng và đoàn khách',
      body: [
        `Quý khách có thể thuê trọn nhà hát cho tiệc công ty, tiệc cưới hoặc lễ kỷ niệm, từ ${privateEvent.minGuests} đến ${privateEvent.maxGuests} khách: bữa tối, gói đồ uống và chương trình biểu diễn tùy chọn.`,
        '',
        '- Vui lòng gửi yêu cầu tại trang liên hệ đặt tiệc với ngày mong muốn, số khách và ý tưởng của quý khách; bộ phận sự kiện sẽ phản hồi trong vòng một ngày làm việc.',
        `- Đoàn đông hơn mức một lần đặt chỗ thông thường (thường trên ${setup.defaultMaxGuests} khách) cũng đặt qua trang liên hệ này.`,
        '- Có thể sắp xếp thực đơn riêng, trang trí thương hiệu, phát biểu và chụp ảnh.',
      ].join('\n'),
    },
  ),
  ...doc(
    'accessibility',
    ['accessibility', 'wheelchair'],
    {
      title: 'Accessibility',
      body: [
        '- Step-free entrance from the street and a lift to every floor, including the balcony.',
        '- Wheelchair-accessible tables on the main floor and an accessible restroom.',
        '- Assistance dogs are welcome.',
        '- The shows use live drums and strobe-free stage lighting; ear plugs are available at the cloakroom.',
        '- Tell us about any need when you book (in the notes) so we can prepare the right table.',
      ].join('\n'),
    },
    {
      title: 'Hỗ trợ người khuyết tật',
      body: [
        '- Lối vào không bậc thềm từ mặt đường và thang máy lên mọi tầng, kể cả ban công.',
        '- Bàn cho xe lăn ở tầng chính và nhà vệ sinh dành cho người khuyết tật.',
        '- Chào đón chó hỗ trợ.',
        '- Buổi diễn có trống biểu diễn trực tiếp và ánh sáng sân khấu không nhấp nháy; có nút bịt tai tại quầy giữ đồ.',
        '- Vui lòng ghi chú nhu cầu khi đặt chỗ để chúng tôi chuẩn bị bàn phù hợp.',
      ].join('\n'),
    },
  ),
  ...doc(
    'contact-location',
    ['contact', 'location', 'address', 'opening-hours'],
    {
      title: 'Contact and location',
      body: [
        'Saigon Stage, 12 Tôn Đức Thắng, Sài Gòn ward, District 1, Ho Chi Minh City.',
        '',
        '- Phone and Zalo: +84 28 3822 0199 (10:00–22:00 every day).',
        '- E-mail: hello@saigonstage.example (answered within one working day).',
        '- Box office at the entrance: open from 16:00 on show days.',
        '- For groups and private events, use the inquiries page.',
      ].join('\n'),
    },
    {
      title: 'Liên hệ và địa chỉ',
      body: [
        'Saigon Stage, 12 Tôn Đức Thắng, phường Sài Gòn, Quận 1, TP. Hồ Chí Minh.',
        '',
        '- Điện thoại và Zalo: +84 28 3822 0199 (10:00–22:00 hằng ngày).',
        '- E-mail: hello@saigonstage.example (phản hồi trong vòng một ngày làm việc).',
        '- Quầy vé tại lối vào: mở cửa từ 16:00 vào ngày có suất diễn.',
        '- Đoàn khách và sự kiện riêng: vui lòng gửi yêu cầu qua trang liên hệ đặt tiệc.',
      ].join('\n'),
    },
  ),
  ...doc(
    'payment-methods',
    ['payment', 'booking'],
    {
      title: 'Paying for your booking',
      body: [
        `We accept ${setup.paymentGateways.map((gateway) => (gateway === 'VNPAY' ? 'VNPay (Vietnamese bank cards, QR and international cards)' : gateway === 'CASH' ? 'cash at the box office' : gateway)).join(' and ')}. Prices are in Vietnamese đồng (VND) and include a ${setup.serviceChargePercent}% service charge and ${setup.vatPercent}% VAT.`,
        '',
        `- Paying online: your seats are held ${setup.holdMinutes} minutes while you pay.`,
        `- Pay at the box office: confirmed at once, you pay on arrival (over ${setup.payAtVenueMaxGuests} guests or more than ${setup.payAtVenueMaxDaysAhead} days ahead, our team confirms first).`,
        `- Bank transfer: seats held ${setup.bankTransferHoldHours} hours (until ${cutoffHours} hours before showtime at the latest); we e-mail the details and a reminder.`,
        '- A VAT invoice (hóa đơn đỏ) can be issued: give the company details at the box office on the day.',
      ].join('\n'),
    },
    {
      title: 'Thanh toán đặt chỗ',
      body: [
        `Chúng tôi nhận ${setup.paymentGateways.map((gateway) => (gateway === 'VNPAY' ? 'VNPay (thẻ ngân hàng Việt Nam, QR và thẻ quốc tế)' : gateway === 'CASH' ? 'tiền mặt tại quầy vé' : gateway)).join(' và ')}. Giá tính bằng đồng Việt Nam (VND), đã bao gồm ${setup.serviceChargePercent}% phí phục vụ và ${setup.vatPercent}% VAT.`,
        '',
        `- Thanh toán trực tuyến: chỗ được giữ ${setup.holdMinutes} phút trong lúc quý khách thanh toán.`,
        `- Trả tại quầy: xác nhận ngay, thanh toán khi đến (trên ${setup.payAtVenueMaxGuests} khách hoặc đặt trước hơn ${setup.payAtVenueMaxDaysAhead} ngày, nhân viên xác nhận trước).`,
        `- Chuyển khoản: chỗ được giữ ${setup.bankTransferHoldHours} giờ (muộn nhất đến ${cutoffHours} giờ trước giờ diễn); chúng tôi gửi e-mail thông tin và lời nhắc.`,
        '- Có xuất hóa đơn đỏ (VAT): vui lòng cung cấp thông tin công ty tại quầy vé trong ngày diễn.',
      ].join('\n'),
    },
  ),
];

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((tag, i) => tag === b[i]);

/**
 * Knowledge documents, found by topic and locale in the staff list (every status). A missing one is created and
 * published; a draft or published one whose title, body or tags differ from the demo text is set back, and a
 * draft is published again. A document an operator archived is left alone (archiving is final), as are the
 * documents operators added.
 */
export async function seedKnowledge(client: VenueClient): Promise<SeedCounts> {
  const existing = await all<Schemas['KnowledgeDocument']>('listing knowledge', (offset) => client.GET('/api/ai/knowledge', { params: { query: { limit: 100, offset } } }));
  const outcomes: Array<'created' | 'updated' | 'unchanged'> = [];
  for (const demo of DEMO_KNOWLEDGE) {
    const name = `${demo.topic} (${demo.locale})`;
    const matches = existing.filter((row) => row.topic === demo.topic && row.locale === demo.locale);
    const live = matches.find((row) => row.status !== 'ARCHIVED');
    if (!live && matches.length) {
      outcomes.push('unchanged');
      continue;
    }
    if (!live) {
      const created = ok(`creating knowledge ${name}`, await client.POST('/api/ai/knowledge', { body: { ...demo, tags: [...demo.tags] } }));
      ok(`publishing knowledge ${name}`, await client.POST('/api/ai/knowledge/{documentId}/publish', { params: { path: { documentId: created.id } } }));
      outcomes.push('created');
      continue;
    }
    const changes: Schemas['KnowledgeUpdate'] = {};
    if (live.title !== demo.title) changes.title = demo.title;
    if (live.body !== demo.body) changes.body = demo.body;
    if (!sameTags(live.tags, demo.tags)) changes.tags = [...demo.tags];
    const edit = Object.keys(changes).length > 0;
    if (edit) ok(`updating knowledge ${name}`, await client.PATCH('/api/ai/knowledge/{documentId}', { params: { path: { documentId: live.id } }, body: changes }));
    const publish = live.status !== 'PUBLISHED';
    if (publish) ok(`publishing knowledge ${name}`, await client.POST('/api/ai/knowledge/{documentId}/publish', { params: { path: { documentId: live.id } } }));
    outcomes.push(edit || publish ? 'updated' : 'unchanged');
  }
  return countsOf(outcomes);
}
