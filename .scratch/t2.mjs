import http from 'node:http';
console.log('a');
const s = http.createServer(() => {});
s.on('error', (e) => console.log('err', e));
s.listen(0, '127.0.0.1', () => { console.log('listening', s.address()); s.close(); });
setTimeout(() => console.log('tick'), 2000);
