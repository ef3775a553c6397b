import { startFakePostHog } from '/work/wt/channels/test/helpers/fakePosthog.ts';
console.log('start');
const f = await startFakePostHog();
console.log('up', f.url);
await f.close();
console.log('closed');
