/**
 * Human messages for the contract's problem codes (issue 34 §2): what a person reads instead of the API's
 * validation text ("must match format "email""), in English and Vietnamese. Every code of the registry
 * (openapi/components/problemCodes.yaml: `GenericProblemCode`, `OperationProblemCode`, `GenericFieldErrorCode`)
 * has a message in both languages: the tables are typed by the generated codes, so a code added to the contract
 * fails `tsc` here, and test/sdk/messages.spec.ts fails on a code the bundled openapi.yaml lists without a message.
 *
 *   const { error } = await api.POST('/api/public/reservations', { body });
 *   if (error) showError(messageFor(error, 'vi'));              // one sentence for the whole answer
 *   const { message, fields } = describeProblem(error, 'vi');   // the headline, and one message per failing field
 *
 * A value that is not a problem (fetch's TypeError when the API cannot be reached, a timeout) reads as a network
 * failure; a code this SDK does not know yet (a newer server) falls back on its HTTP status.
 */
import type { components } from './schema.d.ts';

type Schemas = components['schemas'];
type ProblemCode = Schemas['ProblemCode'];
type GenericFieldErrorCode = Schemas['GenericFieldErrorCode'];

/** The languages the catalog speaks. Any other locale reads English. */
export type MessageLocale = 'en' | 'vi';
export const MESSAGE_LOCALES: readonly MessageLocale[] = ['en', 'vi'];

/** `vi`, `vi-VN`, `VI` → `vi`; anything else → `en`. */
export function messageLocale(locale: string | undefined): MessageLocale {
  return (locale ?? '').toLowerCase().split(/[-_]/)[0] === 'vi' ? 'vi' : 'en';
}

/** One message per problem code, per language. */
export const PROBLEM_MESSAGES: { readonly [L in MessageLocale]: Readonly<Record<ProblemCode, string>> } = {
  en: {
    // ---- generic: any operation may answer these ----
    api_key_not_allowed: 'This action cannot be done with an API key.',
    bad_request: 'The request could not be read. Please check what you entered and try again.',
    body_too_deep: 'The request is nested too deeply to be read.',
    cross_site_request: 'For your security, this change can only be made from the venue’s own dashboard.',
    database_unavailable: 'Our booking system is briefly unavailable. Please try again in a moment.',
    file_type_mismatch: 'The file’s contents do not match its type. Please choose another file.',
    header_too_large: 'The request is too large to be read. Please reload the page and try again.',
    insufficient_role: 'Your account is not allowed to do this.',
    internal_error: 'Something went wrong on our side. Please try again; if it happens again, contact us.',
    invalid_metrics_token: 'The metrics token is missing or wrong.',
    invalid_service_token: 'The service token is missing or wrong.',
    invalid_verify_token: 'The verification token does not match.',
    invalid_webhook_token: 'The webhook token is missing or wrong.',
    malformed_body: 'The request could not be read. Please reload the page and try again.',
    method_not_allowed: 'This action is not available here.',
    missing_permission: 'This API key is not allowed to do this.',
    no_active_membership: 'Your account has no access to this organization. Please sign in again.',
    not_configured: 'This service is not set up yet. Please contact the venue.',
    not_found: 'We could not find what you were looking for. The link may be out of date.',
    operation_disabled: 'This action is turned off at the moment.',
    payload_too_large: 'What you sent is too large. Please shorten it or choose a smaller file.',
    policy_blocked: 'This action is not available to you.',
    request_timeout: 'The request took too long. Please check your connection and try again.',
    too_many_requests: 'Too many attempts in a short time. Please wait a moment and try again.',
    unauthenticated: 'Please sign in to continue.',
    unsupported_content_encoding: 'The request was sent in a form we cannot read. Please reload the page and try again.',
    unsupported_media_type: 'The request was sent in a form we cannot read. Please reload the page and try again.',
    validation_failed: 'Some details need your attention.',
    // ---- answered by an operation ----
    account_banned: 'This account has been blocked. Please contact the venue.',
    amount_exceeds_balance: 'This payment is more than the amount still due.',
    assistant_unavailable: 'Our assistant cannot answer right now. Please try again in a moment.',
    batch_too_large: 'This schedule creates too many performances at once. Please choose a shorter period.',
    booking_closed: 'Online booking for this performance has closed. Please choose another date or call us.',
    botcheck_failed: 'We could not confirm that you are not a robot. Please complete the check and send again.',
    botcheck_required: 'Please complete the check that you are not a robot, then send again.',
    botcheck_unavailable: 'The robot check could not be reached. Nothing was sent; please try again in a moment.',
    browser_not_allowed: 'This address is not meant to be opened in a browser.',
    cancellation_window_closed: 'This booking can no longer be cancelled online. Please contact us.',
    cannot_delete_self: 'You cannot delete the account you are signed in with.',
    canonical_organization: 'The main organization cannot be deleted.',
    canonical_show: 'The main show cannot be archived. Choose another main show first.',
    code_taken: 'This code is already in use. Please choose another.',
    contact_required: 'Please give your name and e-mail address.',
    customer_deleted: 'This guest record was deleted and can no longer be changed.',
    date_out_of_range: 'This date is outside the period you chose.',
    date_range_too_long: 'This period is too long. Please choose a shorter one.',
    default_locale_required: 'Please fill in the text in the site’s main language too.',
    delivery_date_out_of_range: 'Please choose a delivery date from today up to one year ahead.',
    doors_after_start: 'Doors cannot open after the show starts.',
    duplicate_code: 'The same code appears twice.',
    duplicate_item: 'The same item is listed twice in this offer.',
    email_taken: 'This e-mail address is already used by another record.',
    entry_converted: 'This waiting-list entry has already become a booking.',
    entry_not_waiting: 'This waiting-list entry can no longer be changed.',
    event_cancelled: 'This performance has been cancelled. Please choose another date.',
    event_closed: 'This performance is no longer on the schedule. Please choose another date.',
    event_completed: 'This performance has already taken place.',
    event_exists: 'This show already has a performance at that time.',
    event_not_bookable: 'This performance cannot be booked. Please choose another date.',
    event_not_started: 'This performance has not started yet.',
    event_started: 'This performance has already started.',
    event_time_out_of_range: 'This time is outside the hours we accept.',
    expiry_in_past: 'The expiry date must be in the future.',
    gift_voucher_amount_not_offered: 'Please choose one of the amounts offered, or an amount within the range shown.',
    gift_voucher_order_expired: 'This gift-voucher order was not paid in time. Please order again.',
    gift_voucher_order_not_refundable: 'Only a paid gift voucher can be refunded.',
    gift_voucher_used: 'This gift voucher has already been used, so it can no longer be refunded.',
    guest_count_out_of_range: 'This offer is not available for that number of guests. Please change the number of guests or choose another offer.',
    guest_range: 'The smallest party cannot be larger than the largest.',
    hold_expired: 'The time to pay for these seats has run out. Please book again.',
    idempotency_key_reused: 'This request was already sent with other details. Please reload the page and try again.',
    illegal_transition: 'This change is not possible in the record’s current state.',
    inquiry_archived: 'This inquiry is archived and can no longer be changed.',
    invalid_attribution_token: 'The partner link you followed is not valid. You can still book without it.',
    invalid_code: 'This code is not one of the partner’s active codes.',
    invalid_credentials: 'The account name or password is wrong.',
    invalid_date: 'This is not a valid date.',
    invalid_date_range: 'The start date must be before the end date.',
    invalid_destination: 'This link must point to a page of the venue’s website.',
    invalid_discount: 'The discount details do not fit the discount type.',
    invalid_mode: 'The verification request is not valid.',
    invalid_png: 'The image could not be read. Please choose a PNG image.',
    invalid_range: 'The dates of this range are not valid.',
    invalid_recipient: 'Please enter one valid e-mail address.',
    invalid_signature: 'The message signature is missing or wrong.',
    invalid_window: 'The start must be before the end.',
    jobs_unavailable: 'Background tasks are not running on this server.',
    knowledge_archived: 'This document is archived and can no longer be changed.',
    last_canonical_owner: 'The last owner of the main organization cannot lose that role.',
    max_below_redemptions: 'The limit cannot be lower than the number of times the code was already used.',
    messaging_rejected: 'The messaging service refused this message.',
    messaging_unavailable: 'The messaging service cannot be reached. Please try again later.',
    no_message_text: 'The message has no text.',
    no_question: 'Please type your question first.',
    no_ticket: 'There is no ticket yet: the ticket appears once the booking is confirmed.',
    nonce_reused: 'This scan was already recorded.',
    not_a_member: 'You are not a member of that organization.',
    not_enough_seats: 'There are not enough seats left for your party. Please choose fewer guests, another date, or join the waiting list.',
    nothing_to_pay: 'There is no approved commission waiting to be paid.',
    object_deleted: 'This file has been deleted.',
    offer_sales_closed: 'This offer is not on sale at the moment. Please choose another offer.',
    offer_unavailable: 'This offer is not available for this performance. Please choose another offer.',
    organization_has_members: 'This organization still has members.',
    owner_not_superuser: 'Only an administrator account can own an API key.',
    party_full: 'Every guest of this party already has a profile.',
    passkey_already_registered: 'This passkey is already registered.',
    passkey_challenge_invalid: 'The passkey request has expired. Please start again.',
    passkey_counter_regressed: 'This passkey could not be trusted. Please sign in with your password.',
    passkey_not_recognized: 'This passkey is not recognised. Please sign in with your password.',
    passkey_response_malformed: 'The passkey’s answer could not be read. Please try again.',
    passkey_verification_failed: 'The passkey could not be verified. Please try again.',
    payment_method_unavailable: 'This payment method is not available. Please choose another one.',
    payment_not_refundable: 'This payment cannot be refunded.',
    profile_deleted: 'This profile was deleted and can no longer be changed.',
    promo_code_exhausted: 'This promo code has been used up.',
    promo_code_invalid: 'This promo code is not valid. Please check it, or book without it.',
    promo_code_not_applicable: 'This promo code does not apply to this show or offer.',
    range_too_long: 'This period covers too many days. Please choose a shorter one.',
    reauthentication_required: 'For your security, please sign in again and retry.',
    refund_exceeds_remaining: 'The refund is more than what is left of the payment.',
    refund_not_pending: 'This refund has already been handled.',
    refund_via_gateway: 'This refund is sent through the payment provider; it cannot be completed by hand.',
    reservation_already_confirmed: 'This booking is already confirmed.',
    reservation_not_active: 'This booking is no longer active.',
    reservation_not_cancellable: 'This booking can no longer be cancelled.',
    reservation_not_customers: 'This booking does not belong to this guest.',
    reservation_not_editable: 'This booking can no longer be changed.',
    reservation_not_payable: 'This booking cannot be paid now.',
    reset_refused: 'Resetting the database is not allowed on this server.',
    sales_closed: 'Sales for this performance are closed. Please choose another date.',
    sales_window: 'Sales must start before they end.',
    same_customer: 'A guest cannot be merged with themselves.',
    seats_available: 'Good news: seats are available, so you can book them now instead of waiting.',
    seats_released: 'The time to pay ran out and the seats have been taken. Please choose another date.',
    selection_required: 'Please select the records to change.',
    show_archived: 'This show is no longer on sale.',
    show_not_started: 'Reactions open when the doors open.',
    slug_taken: 'This web address is already in use. Please choose another.',
    sold_out: 'This performance is sold out. You can join the waiting list or choose another date.',
    sticker_dimensions: 'This sticker’s size is not accepted.',
    ticket_unavailable: 'The ticket cannot be shown again here: its QR code is in your confirmation e-mail.',
    too_many_reservations: 'This would change too many bookings at once. Please narrow the selection.',
    topic_taken: 'Another document already covers this topic in this language.',
    unknown_assignee: 'There is no such account to assign.',
    unknown_blob: 'A file this refers to no longer exists.',
    unknown_event: 'We could not find this performance. Please choose one from the calendar.',
    unknown_fulfillment_item: 'An item of this offer does not exist.',
    unknown_lead: 'Your booking details have expired. Please fill in the form again.',
    unknown_locale: 'This language is not one the site offers.',
    unknown_offer: 'We could not find this offer. Please choose another one.',
    unknown_partner: 'We could not find this partner.',
    unknown_reservation: 'We could not find this booking. Please open it from the link in your confirmation e-mail.',
    unknown_show: 'We could not find this show.',
    unknown_table: 'There is no such table.',
    voucher_balance_insufficient: 'The voucher no longer has enough value for this booking.',
    voucher_empty: 'Nothing is left on this voucher.',
    voucher_expired: 'This voucher has expired.',
    voucher_invalid: 'This voucher code is not valid. Please check it, or book without it.',
    waitlist_offer_invalid: 'This waiting-list offer is no longer valid: it has expired, been used, or is for another performance.',
    waitlist_party_too_large: 'The seats offered to you are fewer than this number of guests. Please lower the number of guests.',
    pay_at_venue_over_limit: 'Paying at the venue is not available for a party this size or a date this far ahead. Please choose another way to pay.',
    webhook_endpoint_disabled: 'This webhook endpoint is disabled. Enable it before sending messages to it again.',
    webhook_url_refused: 'This webhook address is not allowed: use a public http(s) address, not a private, local or internal one.',
  },
  vi: {
    // ---- chung: mọi thao tác đều có thể trả về ----
    api_key_not_allowed: 'Không thể thực hiện thao tác này bằng khóa API.',
    bad_request: 'Không đọc được yêu cầu. Vui lòng kiểm tra thông tin đã nhập và thử lại.',
    body_too_deep: 'Yêu cầu có cấu trúc lồng nhau quá sâu, không thể đọc được.',
    cross_site_request: 'Để bảo mật, thay đổi này chỉ thực hiện được từ trang quản trị của nhà hát.',
    database_unavailable: 'Hệ thống đặt chỗ tạm thời gián đoạn. Vui lòng thử lại sau giây lát.',
    file_type_mismatch: 'Nội dung tệp không khớp với loại tệp. Vui lòng chọn tệp khác.',
    header_too_large: 'Yêu cầu quá lớn, không thể đọc được. Vui lòng tải lại trang và thử lại.',
    insufficient_role: 'Tài khoản của bạn không có quyền thực hiện thao tác này.',
    internal_error: 'Đã có lỗi xảy ra từ phía chúng tôi. Vui lòng thử lại; nếu vẫn lỗi, xin liên hệ với chúng tôi.',
    invalid_metrics_token: 'Mã truy cập số liệu bị thiếu hoặc không đúng.',
    invalid_service_token: 'Mã dịch vụ bị thiếu hoặc không đúng.',
    invalid_verify_token: 'Mã xác minh không khớp.',
    invalid_webhook_token: 'Mã webhook bị thiếu hoặc không đúng.',
    malformed_body: 'Không đọc được yêu cầu. Vui lòng tải lại trang và thử lại.',
    method_not_allowed: 'Thao tác này không khả dụng ở đây.',
    missing_permission: 'Khóa API này không có quyền thực hiện thao tác này.',
    no_active_membership: 'Tài khoản của bạn không có quyền truy cập tổ chức này. Vui lòng đăng nhập lại.',
    not_configured: 'Dịch vụ này chưa được thiết lập. Vui lòng liên hệ nhà hát.',
    not_found: 'Không tìm thấy nội dung bạn cần. Có thể đường dẫn đã cũ.',
    operation_disabled: 'Thao tác này hiện đang tạm tắt.',
    payload_too_large: 'Nội dung gửi đi quá lớn. Vui lòng rút ngắn hoặc chọn tệp nhỏ hơn.',
    policy_blocked: 'Bạn không thể thực hiện thao tác này.',
    request_timeout: 'Yêu cầu mất quá nhiều thời gian. Vui lòng kiểm tra kết nối và thử lại.',
    too_many_requests: 'Bạn đã thử quá nhiều lần trong thời gian ngắn. Vui lòng đợi một lát rồi thử lại.',
    unauthenticated: 'Vui lòng đăng nhập để tiếp tục.',
    unsupported_content_encoding: 'Yêu cầu được gửi ở định dạng chúng tôi không đọc được. Vui lòng tải lại trang và thử lại.',
    unsupported_media_type: 'Yêu cầu được gửi ở định dạng chúng tôi không đọc được. Vui lòng tải lại trang và thử lại.',
    validation_failed: 'Vui lòng kiểm tra lại một vài thông tin.',
    // ---- do từng thao tác trả về ----
    account_banned: 'Tài khoản này đã bị khóa. Vui lòng liên hệ nhà hát.',
    amount_exceeds_balance: 'Số tiền thanh toán lớn hơn số tiền còn phải trả.',
    assistant_unavailable: 'Trợ lý hiện chưa thể trả lời. Vui lòng thử lại sau giây lát.',
    batch_too_large: 'Lịch này tạo quá nhiều suất diễn cùng lúc. Vui lòng chọn khoảng thời gian ngắn hơn.',
    booking_closed: 'Suất diễn này đã ngừng nhận đặt chỗ trực tuyến. Vui lòng chọn ngày khác hoặc gọi cho chúng tôi.',
    botcheck_failed: 'Chúng tôi chưa xác nhận được bạn không phải là robot. Vui lòng hoàn tất bước kiểm tra rồi gửi lại.',
    botcheck_required: 'Vui lòng hoàn tất bước kiểm tra bạn không phải là robot, rồi gửi lại.',
    botcheck_unavailable: 'Không kết nối được dịch vụ kiểm tra robot. Chưa có gì được gửi; vui lòng thử lại sau giây lát.',
    browser_not_allowed: 'Địa chỉ này không dành để mở bằng trình duyệt.',
    cancellation_window_closed: 'Đặt chỗ này không còn hủy trực tuyến được nữa. Vui lòng liên hệ với chúng tôi.',
    cannot_delete_self: 'Bạn không thể xóa tài khoản đang đăng nhập.',
    canonical_organization: 'Không thể xóa tổ chức chính.',
    canonical_show: 'Không thể lưu trữ chương trình chính. Hãy chọn chương trình chính khác trước.',
    code_taken: 'Mã này đã được dùng. Vui lòng chọn mã khác.',
    contact_required: 'Vui lòng cho biết họ tên và địa chỉ e-mail của bạn.',
    customer_deleted: 'Hồ sơ khách này đã bị xóa và không thể thay đổi.',
    date_out_of_range: 'Ngày này nằm ngoài khoảng thời gian bạn đã chọn.',
    date_range_too_long: 'Khoảng thời gian quá dài. Vui lòng chọn khoảng ngắn hơn.',
    default_locale_required: 'Vui lòng điền cả nội dung bằng ngôn ngữ chính của trang.',
    delivery_date_out_of_range: 'Vui lòng chọn ngày gửi từ hôm nay đến tối đa một năm tới.',
    doors_after_start: 'Giờ mở cửa không thể sau giờ bắt đầu diễn.',
    duplicate_code: 'Cùng một mã xuất hiện hai lần.',
    duplicate_item: 'Cùng một món được liệt kê hai lần trong gói này.',
    email_taken: 'Địa chỉ e-mail này đã được dùng cho một hồ sơ khác.',
    entry_converted: 'Đăng ký chờ này đã được chuyển thành đặt chỗ.',
    entry_not_waiting: 'Đăng ký chờ này không còn thay đổi được nữa.',
    event_cancelled: 'Suất diễn này đã bị hủy. Vui lòng chọn ngày khác.',
    event_closed: 'Suất diễn này không còn trong lịch. Vui lòng chọn ngày khác.',
    event_completed: 'Suất diễn này đã diễn ra.',
    event_exists: 'Chương trình này đã có suất diễn vào giờ đó.',
    event_not_bookable: 'Không thể đặt chỗ cho suất diễn này. Vui lòng chọn ngày khác.',
    event_not_started: 'Suất diễn này chưa bắt đầu.',
    event_started: 'Suất diễn này đã bắt đầu.',
    event_time_out_of_range: 'Giờ này nằm ngoài khung giờ cho phép.',
    expiry_in_past: 'Ngày hết hạn phải ở trong tương lai.',
    gift_voucher_amount_not_offered: 'Vui lòng chọn một trong các mệnh giá có sẵn, hoặc một số tiền trong khoảng cho phép.',
    gift_voucher_order_expired: 'Đơn phiếu quà tặng này đã không được thanh toán kịp thời. Vui lòng đặt lại.',
    gift_voucher_order_not_refundable: 'Chỉ có thể hoàn tiền cho phiếu quà tặng đã thanh toán.',
    gift_voucher_used: 'Phiếu quà tặng này đã được sử dụng nên không thể hoàn tiền.',
    guest_count_out_of_range: 'Gói này không áp dụng cho số khách đó. Vui lòng đổi số khách hoặc chọn gói khác.',
    guest_range: 'Số khách tối thiểu không được lớn hơn số khách tối đa.',
    hold_expired: 'Đã hết thời gian giữ chỗ để thanh toán. Vui lòng đặt lại.',
    idempotency_key_reused: 'Yêu cầu này đã được gửi với thông tin khác. Vui lòng tải lại trang và thử lại.',
    illegal_transition: 'Không thể thực hiện thay đổi này ở trạng thái hiện tại.',
    inquiry_archived: 'Yêu cầu này đã được lưu trữ và không thể thay đổi.',
    invalid_attribution_token: 'Đường dẫn đối tác bạn đã dùng không hợp lệ. Bạn vẫn có thể đặt chỗ mà không cần nó.',
    invalid_code: 'Mã này không nằm trong các mã đang hoạt động của đối tác.',
    invalid_credentials: 'Tên tài khoản hoặc mật khẩu không đúng.',
    invalid_date: 'Ngày này không hợp lệ.',
    invalid_date_range: 'Ngày bắt đầu phải trước ngày kết thúc.',
    invalid_destination: 'Đường dẫn này phải trỏ tới một trang của website nhà hát.',
    invalid_discount: 'Thông tin giảm giá không phù hợp với loại giảm giá.',
    invalid_mode: 'Yêu cầu xác minh không hợp lệ.',
    invalid_png: 'Không đọc được hình ảnh. Vui lòng chọn ảnh PNG.',
    invalid_range: 'Các ngày trong khoảng này không hợp lệ.',
    invalid_recipient: 'Vui lòng nhập một địa chỉ e-mail hợp lệ.',
    invalid_signature: 'Chữ ký của tin nhắn bị thiếu hoặc không đúng.',
    invalid_window: 'Thời điểm bắt đầu phải trước thời điểm kết thúc.',
    jobs_unavailable: 'Các tác vụ nền chưa chạy trên máy chủ này.',
    knowledge_archived: 'Tài liệu này đã được lưu trữ và không thể thay đổi.',
    last_canonical_owner: 'Chủ sở hữu cuối cùng của tổ chức chính không thể mất vai trò này.',
    max_below_redemptions: 'Giới hạn không được thấp hơn số lần mã đã được sử dụng.',
    messaging_rejected: 'Dịch vụ nhắn tin đã từ chối tin nhắn này.',
    messaging_unavailable: 'Không kết nối được dịch vụ nhắn tin. Vui lòng thử lại sau.',
    no_message_text: 'Tin nhắn không có nội dung.',
    no_question: 'Vui lòng nhập câu hỏi của bạn trước.',
    no_ticket: 'Chưa có vé: vé sẽ có khi đặt chỗ được xác nhận.',
    nonce_reused: 'Lượt quét này đã được ghi nhận.',
    not_a_member: 'Bạn không phải là thành viên của tổ chức đó.',
    not_enough_seats: 'Không còn đủ chỗ cho nhóm của bạn. Vui lòng giảm số khách, chọn ngày khác hoặc đăng ký danh sách chờ.',
    nothing_to_pay: 'Không có khoản hoa hồng nào đã duyệt đang chờ chi trả.',
    object_deleted: 'Tệp này đã bị xóa.',
    offer_sales_closed: 'Gói này hiện không mở bán. Vui lòng chọn gói khác.',
    offer_unavailable: 'Gói này không áp dụng cho suất diễn này. Vui lòng chọn gói khác.',
    organization_has_members: 'Tổ chức này vẫn còn thành viên.',
    owner_not_superuser: 'Chỉ tài khoản quản trị viên mới được sở hữu khóa API.',
    party_full: 'Mọi khách trong nhóm này đều đã có hồ sơ.',
    passkey_already_registered: 'Khóa truy cập này đã được đăng ký.',
    passkey_challenge_invalid: 'Yêu cầu khóa truy cập đã hết hạn. Vui lòng bắt đầu lại.',
    passkey_counter_regressed: 'Không thể tin cậy khóa truy cập này. Vui lòng đăng nhập bằng mật khẩu.',
    passkey_not_recognized: 'Không nhận ra khóa truy cập này. Vui lòng đăng nhập bằng mật khẩu.',
    passkey_response_malformed: 'Không đọc được phản hồi của khóa truy cập. Vui lòng thử lại.',
    passkey_verification_failed: 'Không xác minh được khóa truy cập. Vui lòng thử lại.',
    payment_method_unavailable: 'Phương thức thanh toán này không khả dụng. Vui lòng chọn phương thức khác.',
    payment_not_refundable: 'Khoản thanh toán này không thể hoàn tiền.',
    profile_deleted: 'Hồ sơ này đã bị xóa và không thể thay đổi.',
    promo_code_exhausted: 'Mã khuyến mãi này đã hết lượt sử dụng.',
    promo_code_invalid: 'Mã khuyến mãi không hợp lệ. Vui lòng kiểm tra lại, hoặc đặt chỗ không dùng mã.',
    promo_code_not_applicable: 'Mã khuyến mãi này không áp dụng cho chương trình hoặc gói này.',
    range_too_long: 'Khoảng thời gian có quá nhiều ngày. Vui lòng chọn khoảng ngắn hơn.',
    reauthentication_required: 'Để bảo mật, vui lòng đăng nhập lại rồi thử lại.',
    refund_exceeds_remaining: 'Số tiền hoàn lớn hơn phần còn lại của khoản thanh toán.',
    refund_not_pending: 'Yêu cầu hoàn tiền này đã được xử lý.',
    refund_via_gateway: 'Khoản hoàn tiền này được gửi qua cổng thanh toán; không thể hoàn tất thủ công.',
    reservation_already_confirmed: 'Đặt chỗ này đã được xác nhận.',
    reservation_not_active: 'Đặt chỗ này không còn hiệu lực.',
    reservation_not_cancellable: 'Đặt chỗ này không thể hủy được nữa.',
    reservation_not_customers: 'Đặt chỗ này không thuộc về khách này.',
    reservation_not_editable: 'Đặt chỗ này không thể thay đổi được nữa.',
    reservation_not_payable: 'Hiện không thể thanh toán cho đặt chỗ này.',
    reset_refused: 'Máy chủ này không cho phép xóa toàn bộ cơ sở dữ liệu.',
    sales_closed: 'Suất diễn này đã ngừng bán vé. Vui lòng chọn ngày khác.',
    sales_window: 'Thời điểm mở bán phải trước thời điểm ngừng bán.',
    same_customer: 'Không thể gộp một khách với chính khách đó.',
    seats_available: 'Tin vui: vẫn còn chỗ, bạn có thể đặt ngay thay vì chờ.',
    seats_released: 'Đã hết thời gian thanh toán và chỗ đã có người khác đặt. Vui lòng chọn ngày khác.',
    selection_required: 'Vui lòng chọn các mục cần thay đổi.',
    show_archived: 'Chương trình này không còn mở bán.',
    show_not_started: 'Phần bày tỏ cảm xúc sẽ mở khi nhà hát mở cửa.',
    slug_taken: 'Địa chỉ web này đã được dùng. Vui lòng chọn địa chỉ khác.',
    sold_out: 'Suất diễn này đã hết chỗ. Bạn có thể đăng ký danh sách chờ hoặc chọn ngày khác.',
    sticker_dimensions: 'Kích thước nhãn dán này không được chấp nhận.',
    ticket_unavailable: 'Không thể hiển thị lại vé ở đây: mã QR có trong e-mail xác nhận của bạn.',
    too_many_reservations: 'Thao tác này sẽ thay đổi quá nhiều đặt chỗ cùng lúc. Vui lòng thu hẹp lựa chọn.',
    topic_taken: 'Đã có tài liệu khác về chủ đề này bằng ngôn ngữ này.',
    unknown_assignee: 'Không có tài khoản này để giao việc.',
    unknown_blob: 'Một tệp được nhắc đến không còn tồn tại.',
    unknown_event: 'Không tìm thấy suất diễn này. Vui lòng chọn suất diễn trong lịch.',
    unknown_fulfillment_item: 'Một món trong gói này không tồn tại.',
    unknown_lead: 'Thông tin đặt chỗ của bạn đã hết hạn. Vui lòng điền lại biểu mẫu.',
    unknown_locale: 'Trang không hỗ trợ ngôn ngữ này.',
    unknown_offer: 'Không tìm thấy gói này. Vui lòng chọn gói khác.',
    unknown_partner: 'Không tìm thấy đối tác này.',
    unknown_reservation: 'Không tìm thấy đặt chỗ này. Vui lòng mở từ đường dẫn trong e-mail xác nhận.',
    unknown_show: 'Không tìm thấy chương trình này.',
    unknown_table: 'Không có bàn này.',
    voucher_balance_insufficient: 'Phiếu quà tặng không còn đủ giá trị cho đặt chỗ này.',
    voucher_empty: 'Phiếu quà tặng này đã dùng hết giá trị.',
    voucher_expired: 'Phiếu quà tặng này đã hết hạn.',
    voucher_invalid: 'Mã phiếu quà tặng không hợp lệ. Vui lòng kiểm tra lại, hoặc đặt chỗ không dùng phiếu.',
    waitlist_offer_invalid: 'Lời mời từ danh sách chờ không còn hiệu lực: đã hết hạn, đã được dùng hoặc dành cho suất diễn khác.',
    waitlist_party_too_large: 'Số chỗ dành cho bạn ít hơn số khách này. Vui lòng giảm số khách.',
    pay_at_venue_over_limit: 'Thanh toán tại nhà hát không áp dụng cho nhóm đông như vậy hoặc ngày xa như vậy. Vui lòng chọn cách thanh toán khác.',
    webhook_endpoint_disabled: 'Điểm nhận webhook này đang bị tắt. Hãy bật lại trước khi gửi lại tin nhắn.',
    webhook_url_refused: 'Địa chỉ webhook này không được phép: hãy dùng một địa chỉ http(s) công khai, không phải địa chỉ nội bộ hay cục bộ.',
  },
};

/** What a field message may say beyond the field's name: a limit, the expected format, the allowed values. */
export interface FieldDetail {
  /** The number in the check's own message (`maxLength` 200, `minimum` 1, `maximum` 20), when it has one. */
  limit?: number;
  /** `format` checks: the expected format (`email`, `date`, `uri`, …). */
  format?: string;
}

type FieldMessage = (field: string, detail: FieldDetail) => string;

const enFormat: Record<string, string> = {
  email: 'an e-mail address such as name@example.com',
  date: 'a date',
  'date-time': 'a date and time',
  time: 'a time',
  uri: 'a web address starting with https://',
  url: 'a web address starting with https://',
  uuid: 'a valid identifier',
};
const viFormat: Record<string, string> = {
  email: 'một địa chỉ e-mail, ví dụ ten@example.com',
  date: 'một ngày hợp lệ',
  'date-time': 'ngày và giờ hợp lệ',
  time: 'một giờ hợp lệ',
  uri: 'một địa chỉ web bắt đầu bằng https://',
  url: 'một địa chỉ web bắt đầu bằng https://',
  uuid: 'một mã định danh hợp lệ',
};

/** One message per schema or request-path check (`errors[].code`), per language: the field's name, then what to do. */
export const FIELD_ERROR_MESSAGES: { readonly [L in MessageLocale]: Readonly<Record<GenericFieldErrorCode, FieldMessage>> } = {
  en: {
    additionalProperties: (f) => `${f}: this information is not accepted here. Please reload the page and try again.`,
    const: (f) => `${f}: this value is not accepted.`,
    dependentRequired: (f) => `${f}: please also fill in the information that goes with it.`,
    duplicate_field: (f) => `${f} was sent more than once. Please reload the page and try again.`,
    enum: (f) => `${f}: please choose one of the options offered.`,
    file_required: (f) => `${f}: please choose a file.`,
    format: (f, d) => `${f}: please enter ${enFormat[d.format ?? ''] ?? 'a value in the expected format'}.`,
    maxItems: (f, d) => `${f}: please choose fewer items${d.limit !== undefined ? ` (at most ${d.limit})` : ''}.`,
    maxLength: (f, d) => `${f} is too long${d.limit !== undefined ? `: at most ${d.limit} characters` : ''}.`,
    maxProperties: (f) => `${f} has too many entries.`,
    maximum: (f, d) => `${f} is too high${d.limit !== undefined ? `: at most ${d.limit}` : ''}.`,
    minItems: (f, d) => `${f}: please choose at least ${d.limit ?? 1}.`,
    minLength: (f, d) => (d.limit !== undefined && d.limit > 1 ? `${f} is too short: at least ${d.limit} characters.` : `Please fill in ${f}.`),
    minProperties: (f) => `${f}: please fill in at least one value.`,
    minimum: (f, d) => `${f} is too low${d.limit !== undefined ? `: at least ${d.limit}` : ''}.`,
    multipleOf: (f) => `${f}: please use a whole number.`,
    not_allowed: (f) => `${f} cannot be combined with the other details you gave.`,
    nul_character: (f) => `${f} contains a character that is not allowed. Please retype it.`,
    oneOf: (f) => `${f}: please give exactly one of the choices.`,
    pattern: (f) => `${f} contains characters that are not allowed here. Please check it.`,
    propertyNames: (f) => `${f} contains a name that is not accepted.`,
    range: (f) => `${f} is outside the range allowed.`,
    required: (f) => `Please fill in ${f}.`,
    state: (f) => `${f} cannot be set to this value now.`,
    type: (f) => `${f} has the wrong kind of value. Please check it.`,
    unevaluatedProperties: (f) => `${f}: this information is not accepted here. Please reload the page and try again.`,
    unexpected_file: (f) => `${f} does not take a file.`,
    uniqueItems: (f) => `${f} lists the same item twice.`,
    unsupported_file_type: (f) => `${f}: this type of file is not accepted.`,
  },
  vi: {
    additionalProperties: (f) => `${f}: thông tin này không được chấp nhận ở đây. Vui lòng tải lại trang và thử lại.`,
    const: (f) => `${f}: giá trị này không được chấp nhận.`,
    dependentRequired: (f) => `${f}: vui lòng điền thêm thông tin đi kèm.`,
    duplicate_field: (f) => `${f} được gửi nhiều hơn một lần. Vui lòng tải lại trang và thử lại.`,
    enum: (f) => `${f}: vui lòng chọn một trong các lựa chọn có sẵn.`,
    file_required: (f) => `${f}: vui lòng chọn một tệp.`,
    format: (f, d) => `${f}: vui lòng nhập ${viFormat[d.format ?? ''] ?? 'giá trị đúng định dạng'}.`,
    maxItems: (f, d) => `${f}: vui lòng chọn ít mục hơn${d.limit !== undefined ? ` (tối đa ${d.limit})` : ''}.`,
    maxLength: (f, d) => `${f} quá dài${d.limit !== undefined ? `: tối đa ${d.limit} ký tự` : ''}.`,
    maxProperties: (f) => `${f} có quá nhiều mục.`,
    maximum: (f, d) => `${f} quá lớn${d.limit !== undefined ? `: tối đa ${d.limit}` : ''}.`,
    minItems: (f, d) => `${f}: vui lòng chọn ít nhất ${d.limit ?? 1}.`,
    minLength: (f, d) => (d.limit !== undefined && d.limit > 1 ? `${f} quá ngắn: ít nhất ${d.limit} ký tự.` : `Vui lòng điền ${f}.`),
    minProperties: (f) => `${f}: vui lòng điền ít nhất một giá trị.`,
    minimum: (f, d) => `${f} quá nhỏ${d.limit !== undefined ? `: ít nhất ${d.limit}` : ''}.`,
    multipleOf: (f) => `${f}: vui lòng dùng số nguyên.`,
    not_allowed: (f) => `${f} không dùng chung được với các thông tin khác bạn đã nhập.`,
    nul_character: (f) => `${f} chứa ký tự không được phép. Vui lòng nhập lại.`,
    oneOf: (f) => `${f}: vui lòng chọn đúng một trong các lựa chọn.`,
    pattern: (f) => `${f} có ký tự không được phép ở đây. Vui lòng kiểm tra lại.`,
    propertyNames: (f) => `${f} có một tên không được chấp nhận.`,
    range: (f) => `${f} nằm ngoài phạm vi cho phép.`,
    required: (f) => `Vui lòng điền ${f}.`,
    state: (f) => `${f} hiện không thể đặt thành giá trị này.`,
    type: (f) => `${f} có giá trị không đúng loại. Vui lòng kiểm tra lại.`,
    unevaluatedProperties: (f) => `${f}: thông tin này không được chấp nhận ở đây. Vui lòng tải lại trang và thử lại.`,
    unexpected_file: (f) => `${f} không nhận tệp.`,
    uniqueItems: (f) => `${f} có một mục bị lặp lại.`,
    unsupported_file_type: (f) => `${f}: loại tệp này không được chấp nhận.`,
  },
};

/**
 * The fields' names as a guest reads them, by the field's path without its `body/` (`query/`, …) prefix, dotted
 * (`contact.email`), else by its last segment (`email`). Pass your own names to `describeProblem` for others.
 */
export const FIELD_NAMES: { readonly [L in MessageLocale]: Readonly<Record<string, string>> } = {
  en: {
    name: 'your name',
    email: 'your e-mail address',
    phone: 'your phone number',
    honorific: 'your title',
    guestCount: 'the number of guests',
    offerCode: 'the offer',
    eventSlug: 'the performance',
    promoCode: 'the promo code',
    voucherCode: 'the voucher code',
    customerNote: 'your note',
    note: 'your note',
    message: 'your message',
    preferredDate: 'the preferred date',
    type: 'the type of request',
    botcheckToken: 'the robot check',
    waitlistToken: 'the waiting-list offer',
    leadReference: 'your booking details',
    locale: 'the language',
    method: 'the payment method',
    bankCode: 'the bank',
    reason: 'the reason',
    identifier: 'your account name',
    password: 'your password',
    token: 'the code',
    'referral.code': 'the partner code',
    'referral.attributionToken': 'the partner link',
    amountVnd: 'the amount',
    'buyer.name': 'your name',
    'buyer.email': 'your e-mail address',
    'recipient.name': 'the recipient’s name',
    'recipient.email': 'the recipient’s e-mail address',
    deliveryDate: 'the delivery date',
    from: 'the start date',
    to: 'the end date',
    limit: 'the page size',
    offset: 'the page',
  },
  vi: {
    name: 'họ tên',
    email: 'địa chỉ e-mail',
    phone: 'số điện thoại',
    honorific: 'danh xưng',
    guestCount: 'số khách',
    offerCode: 'gói dịch vụ',
    eventSlug: 'suất diễn',
    promoCode: 'mã khuyến mãi',
    voucherCode: 'mã phiếu quà tặng',
    customerNote: 'ghi chú',
    note: 'ghi chú',
    message: 'nội dung tin nhắn',
    preferredDate: 'ngày mong muốn',
    type: 'loại yêu cầu',
    botcheckToken: 'bước kiểm tra robot',
    waitlistToken: 'lời mời từ danh sách chờ',
    leadReference: 'thông tin đặt chỗ',
    locale: 'ngôn ngữ',
    method: 'phương thức thanh toán',
    bankCode: 'ngân hàng',
    reason: 'lý do',
    identifier: 'tên tài khoản',
    password: 'mật khẩu',
    token: 'mã',
    'referral.code': 'mã đối tác',
    'referral.attributionToken': 'đường dẫn đối tác',
    amountVnd: 'số tiền',
    'buyer.name': 'họ tên của quý khách',
    'buyer.email': 'địa chỉ e-mail của quý khách',
    'recipient.name': 'tên người nhận',
    'recipient.email': 'địa chỉ e-mail người nhận',
    deliveryDate: 'ngày gửi',
    from: 'ngày bắt đầu',
    to: 'ngày kết thúc',
    limit: 'số mục mỗi trang',
    offset: 'trang',
  },
};

/** Messages for what is not a problem answer: the API could not be reached, or answered something unexpected. */
export const FALLBACK_MESSAGES: { readonly [L in MessageLocale]: Readonly<Record<'network' | 'client' | 'server' | 'field', string>> } = {
  en: {
    network: 'We cannot reach the booking system right now. Please check your connection and try again.',
    client: 'This request could not be completed. Please check what you entered and try again.',
    server: 'Something went wrong on our side. Please try again in a moment.',
    field: 'this field',
  },
  vi: {
    network: 'Hiện không kết nối được hệ thống đặt chỗ. Vui lòng kiểm tra kết nối mạng và thử lại.',
    client: 'Không thể hoàn tất yêu cầu này. Vui lòng kiểm tra thông tin đã nhập và thử lại.',
    server: 'Đã có lỗi xảy ra từ phía chúng tôi. Vui lòng thử lại sau giây lát.',
    field: 'trường này',
  },
};

/** Codes after which the same request may well succeed a little later: a page offers "try again". */
const RETRYABLE = new Set<string>(['database_unavailable', 'request_timeout', 'too_many_requests', 'assistant_unavailable', 'botcheck_unavailable', 'internal_error', 'messaging_unavailable', 'jobs_unavailable', 'not_configured']);

/** One failing field, as a person reads it. */
export interface FieldProblem {
  /** The API's path (`body/contact/email`). */
  path: string;
  /** The path without its location, dotted (`contact.email`): what a form names its input after. */
  field: string;
  /** The field's name in the language (`your e-mail address`). */
  label: string;
  /** What is wrong and what to do (`Please enter an e-mail address such as name@example.com.`). */
  message: string;
}

export interface DescribedProblem {
  /** The problem's code; `network` when the API could not be reached, `http_<status>` for a non-problem answer. */
  code: string;
  /** The headline: one sentence for the whole answer. */
  message: string;
  /** One entry per failing field (validation errors and the problems about one field). */
  fields: FieldProblem[];
  /** True when trying the same again later may work (the API was unreachable, busy or failing). */
  retryable: boolean;
  /** The API's request id, to quote when reporting a problem. */
  requestId?: string;
}

interface ProblemLike {
  code?: unknown;
  status?: unknown;
  requestId?: unknown;
  errors?: Array<{ path?: unknown; message?: unknown; code?: unknown }>;
}

const isKnownCode = (locale: MessageLocale, code: unknown): code is ProblemCode => typeof code === 'string' && Object.hasOwn(PROBLEM_MESSAGES[locale], code);
const isFieldCode = (locale: MessageLocale, code: unknown): code is GenericFieldErrorCode => typeof code === 'string' && Object.hasOwn(FIELD_ERROR_MESSAGES[locale], code);

/** `body/contact/email` → `contact.email`; the location prefix (`body`, `query`, `path`, `header`) dropped. */
export function fieldOf(path: string): string {
  return path
    .replace(/^\/+/, '')
    .replace(/^(body|query|path|header|headers)(\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .join('.');
}

/** The name of a field as a person reads it: by its dotted path, else by its last segment, else "this field". */
export function fieldLabel(path: string, locale: string, names: Readonly<Record<string, string>> = {}): string {
  const lang = messageLocale(locale);
  const field = fieldOf(path);
  const last = field.split('.').pop() ?? '';
  return names[field] ?? names[last] ?? FIELD_NAMES[lang][field] ?? FIELD_NAMES[lang][last] ?? FALLBACK_MESSAGES[lang].field;
}

const capitalize = (text: string) => (text ? text[0].toLocaleUpperCase() + text.slice(1) : text);

/** A field error's message: its check's (with the limit or format its own message names), or its problem code's. */
function fieldMessage(lang: MessageLocale, entry: { path?: unknown; message?: unknown; code?: unknown }, label: string): string {
  const raw = typeof entry.message === 'string' ? entry.message : '';
  if (isFieldCode(lang, entry.code)) {
    const limit = /(-?\d+(?:\.\d+)?)/.exec(raw)?.[1];
    const format = /format "([^"]+)"/.exec(raw)?.[1];
    return capitalize(FIELD_ERROR_MESSAGES[lang][entry.code](label, { ...(limit !== undefined ? { limit: Number(limit) } : {}), ...(format ? { format } : {}) }));
  }
  if (isKnownCode(lang, entry.code)) return PROBLEM_MESSAGES[lang][entry.code];
  return capitalize(FIELD_ERROR_MESSAGES[lang].type(label, {}));
}

/**
 * A problem answer (or any other failure) as a person reads it, in `locale`: the headline, one message per
 * failing field, and whether trying again may help. `names` adds or overrides field names (by dotted path or last
 * segment), e.g. `{ 'contact.email': 'your e-mail' }`.
 */
export function describeProblem(problem: unknown, locale: string, names: Readonly<Record<string, string>> = {}): DescribedProblem {
  const lang = messageLocale(locale);
  const fallback = FALLBACK_MESSAGES[lang];
  if (typeof problem !== 'object' || problem === null || typeof (problem as ProblemLike).status !== 'number') {
    // fetch's TypeError (offline, refused, CORS), an AbortError or a timeout: the API was not reached.
    return { code: 'network', message: fallback.network, fields: [], retryable: true };
  }
  const p = problem as ProblemLike;
  const status = p.status as number;
  const requestId = typeof p.requestId === 'string' ? p.requestId : undefined;
  const code = typeof p.code === 'string' ? p.code : `http_${status}`;
  const message = isKnownCode(lang, p.code) ? PROBLEM_MESSAGES[lang][p.code] : status >= 500 ? fallback.server : fallback.client;
  const fields: FieldProblem[] = [];
  for (const entry of Array.isArray(p.errors) ? p.errors : []) {
    const path = typeof entry?.path === 'string' ? entry.path : '';
    const label = fieldLabel(path, lang, names);
    fields.push({ path, field: fieldOf(path), label, message: fieldMessage(lang, entry, label) });
  }
  return { code, message, fields, retryable: RETRYABLE.has(code) || status >= 500 || status === 408 || status === 429, ...(requestId ? { requestId } : {}) };
}

/**
 * One sentence (or a few) for the whole answer, in `locale`: the problem's message, then each failing field's.
 *
 *   messageFor({ status: 400, code: 'validation_failed', errors: [{ path: 'body/contact/email', code: 'format', message: 'must match format "email"' }] }, 'en')
 *   // → 'Some details need your attention. Your e-mail address: please enter an e-mail address such as name@example.com.'
 */
export function messageFor(problem: unknown, locale: string, names: Readonly<Record<string, string>> = {}): string {
  const described = describeProblem(problem, locale, names);
  const fieldText = described.fields.map((field) => field.message).filter((text) => text !== described.message);
  return [described.message, ...new Set(fieldText)].join(' ');
}
