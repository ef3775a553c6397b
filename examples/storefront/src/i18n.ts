import type { Locale } from './api.ts';

/** The site's own words (show titles, offers and prices come from the API in the page's locale). */
const WORDS = {
  en: {
    upcoming: 'Upcoming performances', seatsLeft: 'seats left', fewSeats: 'A few seats left', soldOut: 'Sold out', closed: 'Booking closed',
    book: 'Book', from: 'from', perGuest: 'per guest, service charge and VAT included', offers: 'Offers', guests: 'Guests', name: 'Name', email: 'E-mail',
    phone: 'Phone', promoCode: 'Promo code', voucherCode: 'Voucher code', hold: 'Hold my seats', joinWaitlist: 'Join the waiting list',
    waitlist: 'Waiting list', partners: 'Partners', inquiries: 'Private events & groups', shows: 'Shows', referredBy: 'Referred by',
  },
  vi: {
    upcoming: 'Suất diễn sắp tới', seatsLeft: 'chỗ còn lại', fewSeats: 'Chỉ còn ít chỗ', soldOut: 'Hết vé', closed: 'Đã đóng đặt chỗ',
    book: 'Đặt chỗ', from: 'từ', perGuest: 'mỗi khách, đã gồm phí dịch vụ và VAT', offers: 'Gói', guests: 'Số khách', name: 'Họ tên', email: 'E-mail',
    phone: 'Điện thoại', promoCode: 'Mã khuyến mãi', voucherCode: 'Mã voucher', hold: 'Giữ chỗ', joinWaitlist: 'Đăng ký danh sách chờ',
    waitlist: 'Danh sách chờ', partners: 'Đối tác', inquiries: 'Sự kiện riêng & đoàn', shows: 'Chương trình', referredBy: 'Giới thiệu bởi',
  },
} satisfies Record<Locale, Record<string, string>>;

export type Word = keyof (typeof WORDS)['en'];
export const t = (locale: Locale, word: Word): string => WORDS[locale][word];
