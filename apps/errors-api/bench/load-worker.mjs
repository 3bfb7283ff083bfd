// Load generator, in a worker thread so the server's event loop is not the client's, or in a child
// process (forked; its settings arrive as the first message) so the server's CPU time excludes it.
// Keeps `concurrency` requests in flight over keep-alive connections for `seconds`.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';

const settings = workerData ?? (await new Promise((resolve) => process.once('message', resolve)));
const { url, concurrency, seconds, maxRequests, gzip, tails, tailLengths, warmupSeconds } = settings;
const target = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const tailBuffers = tails.map((t) => Buffer.from(t));

function body(kind) {
  const id = randomBytes(16).toString('hex');
  const eventLength = `{"event_id":"${id}",`.length + tailLengths[kind];
  const head = `{"event_id":"${id}","sent_at":"2026-11-22T00:00:00.000Z"}\n{"type":"event","length":${eventLength}}\n{"event_id":"${id}",`;
  const headBytes = gzip ? gzipSync(head, { level: 1 }) : Buffer.from(head);
  return Buffer.concat([headBytes, tailBuffers[kind]]);
}

function send(payload) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      target,
      {
        method: 'POST',
        agent,
        headers: { 'content-length': payload.length, ...(gzip ? { 'content-encoding': 'gzip' } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    req.end(payload);
  });
}

async function run(durationS) {
  const latencies = [];
  let errors = 0;
  let sent = 0;
  const deadline = Date.now() + durationS * 1000;
  const started = process.hrtime.bigint();
  async function client(n) {
    let kind = n;
    while (Date.now() < deadline && sent < maxRequests) {
      sent++;
      const result = await send(body(kind++ % tailBuffers.length));
      if (result.status === 200) latencies.push(result.ms);
      else errors++;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, n) => client(n)));
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  return { latencies, errors, elapsedS };
}

const warmup = await run(warmupSeconds);
const result = { ...(await run(seconds)), warmupAnswered: warmup.latencies.length };
agent.destroy();
if (parentPort) parentPort.postMessage(result);
else process.send(result, () => process.disconnect());
