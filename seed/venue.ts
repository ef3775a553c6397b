/**
 * The demo venue (issue 8 "Demo venue"): what `npm start` on an empty database, `npm run seed` and the terminal
 * app's seeder create through the HTTP API. A Saigon dinner-show house: three shows (one canonical) in English
 * and Vietnamese, eight weeks of events on a weekly pattern, offers for each booking path in VND, what the
 * kitchen and floor prepare per guest, twenty tables in four zones and the commercial setup.
 */

export const DEMO_WEEKS = 8;

export const DEMO_FULFILLMENT_ITEMS = [
  { code: 'MEAL-SET', kind: 'MEAL', name: { en: 'Five-course Vietnamese set menu', vi: 'Thực đơn Việt Nam năm món' }, dietaryTags: ['contains-seafood'] },
  { code: 'MEAL-VEG', kind: 'MEAL', name: { en: 'Vegetarian five-course menu', vi: 'Thực đơn chay năm món' }, dietaryTags: ['vegetarian'] },
  { code: 'MEAL-TASTING', kind: 'MEAL', name: { en: "Chef's seven-course tasting menu", vi: 'Thực đơn nếm thử bảy món của bếp trưởng' }, dietaryTags: ['contains-seafood', 'contains-nuts'] },
  { code: 'DRINK-WELCOME', kind: 'DRINK', name: { en: 'Welcome cocktail', vi: 'Cocktail chào mừng' }, dietaryTags: ['contains-alcohol'] },
  { code: 'DRINK-WINE', kind: 'DRINK', name: { en: 'Wine pairing (three glasses)', vi: 'Rượu vang kết hợp (ba ly)' }, dietaryTags: ['contains-alcohol'] },
  { code: 'DRINK-TEA', kind: 'DRINK', name: { en: 'Lotus tea service', vi: 'Trà sen' }, dietaryTags: ['vegan'] },
  { code: 'MERCH-PROGRAM', kind: 'MERCH', name: { en: 'Printed show programme', vi: 'Tờ chương trình biểu diễn' }, dietaryTags: [] },
  { code: 'SERVICE-HOST', kind: 'SERVICE', name: { en: 'Personal VIP host', vi: 'Nhân viên phục vụ VIP riêng' }, dietaryTags: [] },
] as const;

export const DEMO_SHOWS = [
  {
    code: 'SGC',
    slug: 'saigon-chronicles',
    canonical: true,
    durationMinutes: 120,
    // The youngest age admitted (issue 34 §3), as the knowledge base's "Children and families" says.
    minimumAge: 8,
    sortOrder: 1,
    title: { en: 'Saigon Chronicles', vi: 'Biên niên Sài Gòn' },
    summary: {
      en: 'A dinner cabaret through three centuries of the city, with live band and acrobats.',
      vi: 'Dạ tiệc cabaret qua ba thế kỷ của thành phố, cùng ban nhạc sống và nghệ sĩ xiếc.',
    },
    description: {
      en: 'Twelve performers, a seven-piece band and a five-course dinner tell the story of Saigon from a river trading post to the city that never sleeps. Doors open 45 minutes before the show.',
      vi: 'Mười hai nghệ sĩ, ban nhạc bảy người và bữa tối năm món kể câu chuyện Sài Gòn từ thương cảng ven sông đến thành phố không ngủ. Mở cửa 45 phút trước giờ diễn.',
    },
    // Tuesday to Sunday at 19:30.
    schedule: { weekdays: [2, 3, 4, 5, 6, 7], times: ['19:30'], capacity: 120, doorsMinutesBefore: 45 },
  },
  {
    code: 'LTS',
    slug: 'lotus-tales',
    canonical: false,
    durationMinutes: 75,
    minimumAge: 4,
    sortOrder: 2,
    title: { en: 'Lotus Tales', vi: 'Chuyện hoa sen' },
    summary: {
      en: 'Folk legends told with water puppets and traditional instruments; an early show for families.',
      vi: 'Truyền thuyết dân gian qua múa rối nước và nhạc cụ truyền thống; suất diễn sớm cho gia đình.',
    },
    description: {
      en: 'Seven legends of the Mekong delta, played on water by master puppeteers with a đàn bầu and bamboo flute ensemble. Suitable for children from four.',
      vi: 'Bảy truyền thuyết miền Tây sông nước do các nghệ nhân múa rối nước biểu diễn cùng dàn nhạc đàn bầu và sáo trúc. Phù hợp cho trẻ từ bốn tuổi.',
    },
    // Friday and Saturday at 17:00, Sunday at 11:00 and 17:00.
    schedule: { weekdays: [5, 6], times: ['17:00'], capacity: 80, doorsMinutesBefore: 30, extra: { weekdays: [7], times: ['11:00', '17:00'] } },
  },
  {
    code: 'JZN',
    slug: 'jazz-after-dark',
    canonical: false,
    durationMinutes: 90,
    minimumAge: 18,
    sortOrder: 3,
    title: { en: 'Jazz After Dark', vi: 'Jazz về đêm' },
    summary: {
      en: 'A late jazz set with Vietnamese standards reimagined, cocktails and small plates.',
      vi: 'Đêm nhạc jazz muộn với những ca khúc Việt kinh điển được phối mới, cocktail và món nhẹ.',
    },
    description: {
      en: 'The house quintet and a guest vocalist play Trịnh Công Sơn and Phạm Duy in the key of Blue Note. Adults only.',
      vi: 'Nhóm ngũ tấu của nhà hát cùng ca sĩ khách mời trình bày Trịnh Công Sơn và Phạm Duy theo phong cách Blue Note. Dành cho người lớn.',
    },
    // Thursday and Saturday at 21:30.
    schedule: { weekdays: [4, 6], times: ['21:30'], capacity: 60, doorsMinutesBefore: 30 },
  },
] as const;

type Item = { code: string; quantityPerGuest: number };

export const DEMO_OFFERS: ReadonlyArray<{
  code: string;
  showCode: string | null;
  bookingPath: 'DINNER_SHOW' | 'SHOW_ONLY' | 'VIP_DINNER_SHOW' | 'PRIVATE_EVENT';
  /** The tier as the API names it: an upper-case word (`STANDARD`, `VIP` …). */
  experienceType: string;
  pricePerGuestVnd: number;
  minGuests: number;
  maxGuests: number;
  sortOrder: number;
  name: { en: string; vi: string };
  description: { en: string; vi: string };
  items: Item[];
}> = [
  {
    code: 'SGC-DINNER',
    showCode: 'SGC',
    bookingPath: 'DINNER_SHOW',
    experienceType: 'STANDARD',
    pricePerGuestVnd: 1_650_000,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 1,
    name: { en: 'Dinner and show', vi: 'Ăn tối và xem biểu diễn' },
    description: { en: 'Five-course dinner, welcome cocktail and the show.', vi: 'Bữa tối năm món, cocktail chào mừng và chương trình biểu diễn.' },
    items: [
      { code: 'MEAL-SET', quantityPerGuest: 1 },
      { code: 'DRINK-WELCOME', quantityPerGuest: 1 },
      { code: 'MERCH-PROGRAM', quantityPerGuest: 1 },
    ],
  },
  {
    code: 'SGC-SHOW',
    showCode: 'SGC',
    bookingPath: 'SHOW_ONLY',
    experienceType: 'ESSENTIAL',
    pricePerGuestVnd: 950_000,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 2,
    name: { en: 'Show only', vi: 'Chỉ xem biểu diễn' },
    description: { en: 'Balcony seating with a welcome cocktail.', vi: 'Ghế ban công kèm cocktail chào mừng.' },
    items: [
      { code: 'DRINK-WELCOME', quantityPerGuest: 1 },
      { code: 'MERCH-PROGRAM', quantityPerGuest: 1 },
    ],
  },
  {
    code: 'SGC-VIP',
    showCode: 'SGC',
    bookingPath: 'VIP_DINNER_SHOW',
    experienceType: 'VIP',
    pricePerGuestVnd: 2_900_000,
    minGuests: 2,
    maxGuests: 8,
    sortOrder: 3,
    name: { en: 'VIP dinner and show', vi: 'Ăn tối VIP và xem biểu diễn' },
    description: {
      en: "Front VIP booth, chef's tasting menu with wine pairing and a personal host.",
      vi: 'Bàn VIP phía trước, thực đơn nếm thử của bếp trưởng kèm rượu vang và nhân viên phục vụ riêng.',
    },
    items: [
      { code: 'MEAL-TASTING', quantityPerGuest: 1 },
      { code: 'DRINK-WINE', quantityPerGuest: 1 },
      { code: 'SERVICE-HOST', quantityPerGuest: 1 },
      { code: 'MERCH-PROGRAM', quantityPerGuest: 1 },
    ],
  },
  {
    code: 'LTS-DINNER',
    showCode: 'LTS',
    bookingPath: 'DINNER_SHOW',
    experienceType: 'FAMILY',
    pricePerGuestVnd: 1_250_000,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 1,
    name: { en: 'Family dinner and show', vi: 'Bữa tối gia đình và xem biểu diễn' },
    description: { en: 'Early dinner, lotus tea and the puppet show.', vi: 'Bữa tối sớm, trà sen và múa rối nước.' },
    items: [
      { code: 'MEAL-SET', quantityPerGuest: 1 },
      { code: 'DRINK-TEA', quantityPerGuest: 1 },
    ],
  },
  {
    code: 'LTS-SHOW',
    showCode: 'LTS',
    bookingPath: 'SHOW_ONLY',
    experienceType: 'ESSENTIAL',
    pricePerGuestVnd: 650_000,
    minGuests: 1,
    maxGuests: 10,
    sortOrder: 2,
    name: { en: 'Show only', vi: 'Chỉ xem biểu diễn' },
    description: { en: 'The puppet show with lotus tea.', vi: 'Múa rối nước kèm trà sen.' },
    items: [{ code: 'DRINK-TEA', quantityPerGuest: 1 }],
  },
  {
    code: 'JZN-SHOW',
    showCode: 'JZN',
    bookingPath: 'SHOW_ONLY',
    experienceType: 'STANDARD',
    pricePerGuestVnd: 750_000,
    minGuests: 1,
    maxGuests: 6,
    sortOrder: 1,
    name: { en: 'Jazz set and cocktail', vi: 'Đêm jazz và cocktail' },
    description: { en: 'Lounge seating and a signature cocktail.', vi: 'Ghế lounge và một ly cocktail đặc biệt.' },
    items: [{ code: 'DRINK-WELCOME', quantityPerGuest: 1 }],
  },
  {
    code: 'JZN-VIP',
    showCode: 'JZN',
    bookingPath: 'VIP_DINNER_SHOW',
    experienceType: 'PREMIUM',
    pricePerGuestVnd: 1_800_000,
    minGuests: 2,
    maxGuests: 6,
    sortOrder: 2,
    name: { en: 'Stage-side table with supper', vi: 'Bàn sát sân khấu kèm bữa khuya' },
    description: { en: 'Stage-side table, vegetarian-friendly supper and wine pairing.', vi: 'Bàn sát sân khấu, bữa khuya có lựa chọn chay và rượu vang.' },
    items: [
      { code: 'MEAL-VEG', quantityPerGuest: 1 },
      { code: 'DRINK-WINE', quantityPerGuest: 1 },
    ],
  },
  {
    code: 'PRIVATE-EVENT',
    showCode: null,
    bookingPath: 'PRIVATE_EVENT',
    experienceType: 'PRIVATE',
    pricePerGuestVnd: 2_200_000,
    minGuests: 20,
    maxGuests: 120,
    sortOrder: 9,
    name: { en: 'Private event', vi: 'Sự kiện riêng' },
    description: {
      en: 'The whole house for a company or wedding party: dinner, drinks package and the show of your choice.',
      vi: 'Trọn nhà hát cho công ty hoặc tiệc cưới: bữa tối, gói đồ uống và chương trình tùy chọn.',
    },
    items: [
      { code: 'MEAL-SET', quantityPerGuest: 1 },
      { code: 'DRINK-WINE', quantityPerGuest: 1 },
      { code: 'SERVICE-HOST', quantityPerGuest: 1 },
    ],
  },
];

/** Twenty tables: four by the stage, four VIP booths, eight on the main floor, four on the balcony. */
export const DEMO_TABLES = [
  ...['S1', 'S2', 'S3', 'S4'].map((code, i) => ({ code, zone: 'STAGE_FRONT' as const, seats: 4, sortOrder: i + 1 })),
  ...['V1', 'V2', 'V3', 'V4'].map((code, i) => ({ code, zone: 'VIP' as const, seats: 6, sortOrder: i + 1 })),
  ...['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7', 'M8'].map((code, i) => ({ code, zone: 'MAIN' as const, seats: i < 4 ? 6 : 4, sortOrder: i + 1 })),
  ...['B1', 'B2', 'B3', 'B4'].map((code, i) => ({ code, zone: 'BALCONY' as const, seats: i < 2 ? 4 : 2, sortOrder: i + 1 })),
];

export const DEMO_COMMERCIAL_SETUP = {
  bookingCutoffMinutes: 120,
  holdMinutes: 15,
  cancellationWindowHours: 48,
  serviceChargePercent: 5,
  vatPercent: 8,
  paymentGateways: ['VNPAY', 'CASH'],
  defaultMaxGuests: 10,
  limitedAvailabilityThreshold: 12,
  // Paying later (issue 34 §1): at the venue, confirmed at once for up to 8 guests a month ahead, larger or later
  // bookings wait for staff; a bank transfer keeps the seats a day, reminded 6 hours before.
  payAtVenueMaxGuests: 8,
  payAtVenueMaxDaysAhead: 30,
  payAtVenueOverLimit: 'STAFF_APPROVAL',
  payAtVenueApprovalHours: 48,
  bankTransferHoldHours: 24,
  bankTransferReminderHours: 6,
  // Gift vouchers sold online (issue 36 §1): four amounts on the site, or one of the guest's own from 300.000 ₫ to
  // 20.000.000 ₫; a sold voucher is valid 36 months (docs/flows/gift-vouchers.md says why).
  giftVoucherAmountsVnd: [500_000, 1_000_000, 2_000_000, 5_000_000],
  giftVoucherMinVnd: 300_000,
  giftVoucherMaxVnd: 20_000_000,
  giftVoucherValidityMonths: 36,
} as const;
