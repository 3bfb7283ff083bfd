// HTTP client for the speed benchmark, in a worker thread so that the server's event loop (and
// its core) is not also the client's. Sends the given requests over keep-alive connections with
// `concurrency` in flight and reports each latency and the last answer's body; any non-2xx answer
// fails the run.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, method, requests, concurrency } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

function send(path, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const payload = body === undefined ? undefined : Buffer.from(body);
    const req = http.request(
      new URL(path, url),
      {
        method,
        agent,
        headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode >= 300) reject(new Error(`${path}: ${res.statusCode} ${Buffer.concat(chunks)}`));
          else {
            last = Buffer.concat(chunks).toString();
            resolve(performance.now() - started);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const latencies = [];
let last = '';
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests.length) {
      const { path, body } = requests[next++];
      latencies.push(await send(path, body));
    }
  }),
);
parentPort.postMessage({ seconds: (performance.now() - started) / 1000, latencies, last });
agent.destroy();
