import { startFakePlatform } from '/work/wt/channels/test/helpers/fakeChatPlatforms.ts';
console.log('start');
const p = startFakePlatform(() => ({ status: 200, body: {} }));
console.log('called', p);
setTimeout(() => console.log('tick'), 1000);
const f = await p;
console.log('up', f.url);
