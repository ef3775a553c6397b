import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
import {
  __name
} from "./chunk-D2NJZ3J4.js";

// server/assistant/facts.ts
var isObject = /* @__PURE__ */ __name((value) => typeof value === "object" && value !== null && !Array.isArray(value), "isObject");
var str = /* @__PURE__ */ __name((value) => typeof value === "string" && value.trim() !== "" ? value : void 0, "str");
var num = /* @__PURE__ */ __name((value) => typeof value === "number" && Number.isFinite(value) ? value : void 0, "num");
var first = /* @__PURE__ */ __name((...values) => values.find((value) => value !== void 0), "first");
function listIn(data, keys) {
  if (Array.isArray(data)) return data;
  if (!isObject(data)) return [];
  for (const key of keys) if (Array.isArray(data[key])) return data[key];
  const any = Object.values(data).find(Array.isArray);
  return any ?? [];
}
__name(listIn, "listIn");
function text(value) {
  if (typeof value === "string") return str(value);
  if (isObject(value)) return str(value.text) ?? Object.values(value).find((v) => typeof v === "string");
  return void 0;
}
__name(text, "text");
function readShows(data) {
  return listIn(data, ["shows", "items"]).flatMap((raw) => {
    if (!isObject(raw)) return [];
    const slug = str(raw.slug) ?? str(raw.showSlug) ?? str(raw.id);
    const title = text(raw.title) ?? text(raw.name);
    if (!slug || !title) return [];
    const priceFrom = raw.priceFrom ?? raw.priceFromVnd ?? raw.fromPriceVnd;
    return [
      {
        slug,
        title,
        summary: text(raw.summary),
        description: text(raw.description),
        durationMinutes: num(raw.durationMinutes),
        showUrl: str(raw.showUrl) ?? str(raw.url),
        priceFromVnd: num(priceFrom) ?? (isObject(priceFrom) ? num(priceFrom.pricePerGuestVnd) ?? num(priceFrom.amountVnd) : void 0)
      }
    ];
  });
}
__name(readShows, "readShows");
function readEvents(data, zone) {
  const top = isObject(data) ? data : {};
  const read = /* @__PURE__ */ __name((raw, show) => {
    if (!isObject(raw)) return [];
    const key = str(raw.eventSlug) ?? str(raw.slug) ?? str(raw.id);
    let date = str(raw.date) ?? str(top.date);
    let time = str(raw.time);
    const startsAt = str(raw.startsAt);
    if ((!date || !time) && startsAt) {
      const local = localParts(startsAt, zone);
      date ??= local.date;
      time ??= local.time;
    }
    if (!key || !date || !time) return [];
    const rawShow = isObject(raw.show) ? raw.show : show;
    return [
      {
        key,
        showSlug: str(raw.showSlug) ?? str(rawShow?.slug),
        showTitle: text(raw.showTitle) ?? text(rawShow?.title),
        date,
        time,
        doorsTime: str(raw.doorsTime),
        state: str(raw.availability) ?? str(raw.state),
        seatsLeft: num(raw.seatsLeft),
        fit: str(raw.fit),
        bookingUrl: str(raw.bookingUrl)
      }
    ];
  }, "read");
  const list = Array.isArray(top.events) ? top.events : listIn(data, ["items", "events"]);
  const events = list.flatMap((raw) => isObject(raw) && Array.isArray(raw.nextDates) ? raw.nextDates.flatMap((next) => read(next, raw)) : read(raw, void 0));
  return events.sort((a, b) => `${a.date}T${a.time}`.localeCompare(`${b.date}T${b.time}`));
}
__name(readEvents, "readEvents");
function localParts(iso, zone) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return {};
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at).map((part) => [part.type, part.value])
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}
__name(localParts, "localParts");
function readOffers(data) {
  const top = isObject(data) ? data : {};
  const eventShow = isObject(top.event) && isObject(top.event.show) ? top.event.show : void 0;
  const groups = listIn(data, ["offers", "shows", "options", "bookingOptions", "items"]);
  const out = [];
  const add = /* @__PURE__ */ __name((raw, show) => {
    if (!isObject(raw)) return;
    const name = text(raw.name) ?? text(raw.title);
    if (!name) return;
    const perGuest = isObject(raw.perGuest) ? raw.perGuest : isObject(raw.price) ? raw.price : void 0;
    const included = Array.isArray(raw.includes) ? raw.includes : raw.items;
    const items = Array.isArray(included) ? included.flatMap((item) => isObject(item) ? [text(item.name)].filter((n) => Boolean(n)) : typeof item === "string" ? [item] : []) : [];
    const rawShow = isObject(raw.show) ? raw.show : void 0;
    out.push({
      code: str(raw.code),
      showSlug: str(raw.showSlug) ?? str(rawShow?.slug) ?? str(show?.slug) ?? str(eventShow?.slug),
      showTitle: text(raw.showTitle) ?? text(rawShow?.title) ?? text(show?.title) ?? text(eventShow?.title),
      name,
      description: text(raw.description),
      bookingPath: str(raw.bookingPath),
      experienceType: str(raw.experienceType),
      minGuests: num(raw.minGuests),
      maxGuests: num(raw.maxGuests),
      pricePerGuestVnd: first(num(raw.pricePerGuestVnd), num(perGuest?.pricePerGuestVnd), num(raw.priceVnd)),
      totalPerGuestVnd: first(num(perGuest?.totalVnd), num(raw.totalPerGuestVnd)),
      party: isObject(raw.forParty) && num(raw.forParty.guests) !== void 0 && num(raw.forParty.totalVnd) !== void 0 ? { guests: num(raw.forParty.guests), totalVnd: num(raw.forParty.totalVnd) } : void 0,
      items
    });
  }, "add");
  for (const entry of groups) {
    if (isObject(entry) && Array.isArray(entry.offers)) for (const offer of entry.offers) add(offer, entry);
    else add(entry, void 0);
  }
  return out;
}
__name(readOffers, "readOffers");
function readKnowledge(data) {
  return listIn(data, ["documents", "items", "knowledge"]).flatMap((raw) => {
    if (!isObject(raw)) return [];
    const title = text(raw.title);
    const body = text(raw.body) ?? text(raw.content) ?? text(raw.text) ?? text(raw.answer);
    if (!title || !body) return [];
    const tags = Array.isArray(raw.tags) ? raw.tags.filter((tag) => typeof tag === "string") : [];
    return [{ id: str(raw.id) ?? str(raw.slug), topic: str(raw.topic), title, body, tags }];
  });
}
__name(readKnowledge, "readKnowledge");
var isUrl = /* @__PURE__ */ __name((value) => /^https?:\/\//i.test(value), "isUrl");
function readRoutes(data) {
  const facts = { named: {}, showUrls: {}, bookingUrls: {}, all: [] };
  const all = /* @__PURE__ */ new Set();
  const walk = /* @__PURE__ */ __name((value, key, owner) => {
    if (typeof value === "string") {
      if (!isUrl(value) || value.includes("{")) return;
      all.add(value);
      if (key === "showUrl") {
        const slug = str(owner?.slug) ?? str(owner?.showSlug);
        if (slug) facts.showUrls[slug] = value;
      } else if (key === "bookingUrl") {
        const event = str(owner?.slug) ?? str(owner?.eventSlug) ?? str(owner?.id) ?? str(owner?.eventId);
        if (event) facts.bookingUrls[event] = value;
      } else if (key && !(key in facts.named)) {
        facts.named[key] = value;
      }
      return;
    }
    if (Array.isArray(value)) for (const item of value) walk(item, void 0, void 0);
    else if (isObject(value)) {
      if (typeof value.url === "string" && typeof (value.name ?? value.key ?? value.route) === "string") {
        const name = String(value.name ?? value.key ?? value.route);
        if (isUrl(value.url)) {
          all.add(value.url);
          if (!(name in facts.named)) facts.named[name] = value.url;
        }
      }
      for (const [k, v] of Object.entries(value)) if (k !== "url" || typeof value.name !== "string") walk(v, k, value);
    }
  }, "walk");
  walk(data, void 0, void 0);
  facts.all = [...all];
  return facts;
}
__name(readRoutes, "readRoutes");
function routeNamed(routes, ...names) {
  for (const name of names) {
    const hit = Object.entries(routes.named).find(([key]) => key.toLowerCase() === name.toLowerCase());
    if (hit) return hit[1];
  }
  return void 0;
}
__name(routeNamed, "routeNamed");

export {
  readShows,
  readEvents,
  readOffers,
  readKnowledge,
  readRoutes,
  routeNamed
};
