import { startFakeManyChat } from '/work/wt/channels/test/helpers/fakeChatPlatforms.ts';
console.log('start');
const f = await startFakeManyChat();
console.log('up', f.url);
await f.close();
console.log('closed');
