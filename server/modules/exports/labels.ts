/**
 * The words of the night's lists (issue 36 §2), in the languages the floor reads: the lists are printed for people
 * in the venue, so their headings follow `locale` (en, vi); the data in them (names, notes) is as it was typed.
 */

export const LIST_LOCALES = ['en', 'vi'] as const;
export type ListLocale = (typeof LIST_LOCALES)[number];

export interface Labels {
  doorList: string;
  kitchenList: string;
  group: string;
  reference: string;
  name: string;
  phone: string;
  guests: string;
  offer: string;
  table: string;
  dietary: string;
  notes: string;
  total: string;
  paid: string;
  due: string;
  status: string;
  checkedIn: string;
  noTable: string;
  notArrived: string;
  arrived: (from: string, to: string) => string;
  tableGroup: (code: string, zone: string, seats: number) => string;
  toPrepare: string;
  item: string;
  itemCode: string;
  kind: string;
  quantity: string;
  dietaryTags: string;
  dietaryNeeds: string;
  doors: string;
  printedAt: string;
  summary: (parties: number, guests: number, partiesIn: number, guestsIn: number) => string;
  dueSummary: (paid: string, due: string) => string;
  nobody: string;
  page: (page: number, pages: number) => string;
  statuses: Record<string, string>;
  zones: Record<string, string>;
  kinds: Record<string, string>;
  preferences: Record<string, string>;
}

const en: Labels = {
  doorList: 'Door list',
  kitchenList: 'Kitchen list',
  group: 'Group',
  reference: 'Ref.',
  name: 'Name',
  phone: 'Phone',
  guests: 'Guests',
  offer: 'Offer',
  table: 'Table',
  dietary: 'Dietary needs',
  notes: 'Notes',
  total: 'Total',
  paid: 'Paid',
  due: 'Due',
  status: 'Status',
  checkedIn: 'Checked in',
  noTable: 'No table',
  notArrived: 'Not arrived yet',
  arrived: (from, to) => `Arrived ${from}–${to}`,
  tableGroup: (code, zone, seats) => `Table ${code} · ${zone} · ${seats} seats`,
  toPrepare: 'To prepare',
  item: 'Item',
  itemCode: 'Code',
  kind: 'Kind',
  quantity: 'Quantity',
  dietaryTags: 'Dietary tags',
  dietaryNeeds: 'Dietary needs',
  doors: 'Doors',
  printedAt: 'Printed',
  summary: (parties, guests, partiesIn, guestsIn) => `${parties} parties, ${guests} guests; checked in: ${partiesIn} parties, ${guestsIn} guests`,
  dueSummary: (paid, due) => `Paid ${paid}; due at the door ${due}`,
  nobody: 'No confirmed bookings.',
  page: (page, pages) => `Page ${page} of ${pages}`,
  statuses: { CONFIRMED: 'Confirmed', CHECKED_IN: 'Checked in' },
  zones: { STAGE_FRONT: 'Stage front', VIP: 'VIP', MAIN: 'Main', BALCONY: 'Balcony' },
  kinds: { MEAL: 'Meal', DRINK: 'Drink', MERCH: 'Merchandise', SERVICE: 'Service' },
  preferences: {
    VEGETARIAN: 'Vegetarian',
    VEGAN: 'Vegan',
    PESCATARIAN: 'Pescatarian',
    GLUTEN_FREE: 'Gluten-free',
    DAIRY_FREE: 'Dairy-free',
    NUT_ALLERGY: 'Nut allergy',
    SHELLFISH_ALLERGY: 'Shellfish allergy',
    HALAL: 'Halal',
    KOSHER: 'Kosher',
    NO_PORK: 'No pork',
    NO_BEEF: 'No beef',
    NO_ALCOHOL: 'No alcohol',
  },
};

const vi: Labels = {
  doorList: 'Danh sách đón khách',
  kitchenList: 'Danh sách bếp',
  group: 'Nhóm',
  reference: 'Mã',
  name: 'Tên khách',
  phone: 'Điện thoại',
  guests: 'Số khách',
  offer: 'Gói',
  table: 'Bàn',
  dietary: 'Ăn kiêng',
  notes: 'Ghi chú',
  total: 'Tổng',
  paid: 'Đã trả',
  due: 'Còn phải trả',
  status: 'Trạng thái',
  checkedIn: 'Đã đến',
  noTable: 'Chưa xếp bàn',
  notArrived: 'Chưa đến',
  arrived: (from, to) => `Đến lúc ${from}–${to}`,
  tableGroup: (code, zone, seats) => `Bàn ${code} · ${zone} · ${seats} chỗ`,
  toPrepare: 'Cần chuẩn bị',
  item: 'Món',
  itemCode: 'Mã món',
  kind: 'Loại',
  quantity: 'Số lượng',
  dietaryTags: 'Nhãn ăn kiêng',
  dietaryNeeds: 'Nhu cầu ăn kiêng',
  doors: 'Mở cửa',
  printedAt: 'In lúc',
  summary: (parties, guests, partiesIn, guestsIn) => `${parties} nhóm, ${guests} khách; đã đến: ${partiesIn} nhóm, ${guestsIn} khách`,
  dueSummary: (paid, due) => `Đã trả ${paid}; thu tại cửa ${due}`,
  nobody: 'Chưa có đặt chỗ nào được xác nhận.',
  page: (page, pages) => `Trang ${page}/${pages}`,
  statuses: { CONFIRMED: 'Đã xác nhận', CHECKED_IN: 'Đã đến' },
  zones: { STAGE_FRONT: 'Sát sân khấu', VIP: 'VIP', MAIN: 'Khu chính', BALCONY: 'Ban công' },
  kinds: { MEAL: 'Món ăn', DRINK: 'Đồ uống', MERCH: 'Quà lưu niệm', SERVICE: 'Dịch vụ' },
  preferences: {
    VEGETARIAN: 'Ăn chay',
    VEGAN: 'Thuần chay',
    PESCATARIAN: 'Chỉ ăn cá, không thịt',
    GLUTEN_FREE: 'Không gluten',
    DAIRY_FREE: 'Không sữa',
    NUT_ALLERGY: 'Dị ứng các loại hạt',
    SHELLFISH_ALLERGY: 'Dị ứng hải sản có vỏ',
    HALAL: 'Halal',
    KOSHER: 'Kosher',
    NO_PORK: 'Không thịt heo',
    NO_BEEF: 'Không thịt bò',
    NO_ALCOHOL: 'Không rượu bia',
  },
};

export const LABELS: Record<ListLocale, Labels> = { en, vi };

/** The list's locale: the one asked for, else the venue's default when the lists speak it, else English. */
export function listLocale(asked: string | undefined, defaultLocale: string): ListLocale {
  const wanted = asked ?? defaultLocale;
  return (LIST_LOCALES as readonly string[]).includes(wanted) ? (wanted as ListLocale) : 'en';
}
