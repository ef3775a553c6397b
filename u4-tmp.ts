import { understand } from './server/assistant/offline/understand.ts';
for (const text of process.argv.slice(2)) { const u = understand(text, new Date(), 'Asia/Ho_Chi_Minh', {}); for (const r of u.requests) console.log(JSON.stringify({ f: r.folded, t: r.topics, d: r.declined, best: (r as any).best })); }
