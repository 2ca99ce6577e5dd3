#!/usr/bin/env node
// ONNX Runtime on one QDQ model: runs it on a raw float32 input, writes the
// first output (raw float32) and prints JSON with the median 'model_run'
// time from ORT's profiler (the session's own time, no Node binding), the
// kernels ORT chose and how many runs were timed.
//
//   NODE_PATH=$WORK/node_modules node ort_qdq.js MODEL INPUT.raw DIMS THREADS OUT.raw PROFDIR [DTYPE]
//   (DIMS: comma-separated, e.g. 4,128,768; DTYPE: the input's element type,
//   float32 (default), uint8 or int8; the output is written as its raw bytes)
//   ORT_GRAPH_OPT: the session's graphOptimizationLevel, 'all' (default: ORT
//   fuses QDQ itself) or 'disabled' (the graph as written, node by node).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

async function main() {
  const [model, inputFile, dimsText, threadsText, outFile, profDir, dtypeText] = process.argv.slice(2);
  const dtype = dtypeText || 'float32';
  const arrays = { float32: Float32Array, uint8: Uint8Array, int8: Int8Array };
  const dims = dimsText.split(',').map(Number);
  const threads = Number(threadsText);
  const buf = fs.readFileSync(inputFile);
  const ab = new ArrayBuffer(buf.byteLength);
  new Uint8Array(ab).set(buf);
  fs.mkdirSync(profDir, { recursive: true });
  const prefix = path.join(profDir, path.basename(model, '.onnx') + `_t${threads}`);
  for (const f of fs.readdirSync(profDir))
    if (f.startsWith(path.basename(prefix) + '_')) fs.unlinkSync(path.join(profDir, f));
  const sess = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'], graphOptimizationLevel: process.env.ORT_GRAPH_OPT || 'all',
    intraOpNumThreads: threads, interOpNumThreads: 1,
    executionMode: 'sequential', logSeverityLevel: 3,
    enableProfiling: true, profileFilePrefix: prefix,
    ...(process.env.ORT_ACCURACY_LEVEL ? { extra: { session: { qdq_matmulnbits_accuracy_level: process.env.ORT_ACCURACY_LEVEL } } } : {}) });
  const feeds = { [sess.inputNames[0]]: new ort.Tensor(dtype, new arrays[dtype](ab), dims) };
  let out;
  const warmup = 5;
  const t0 = Date.now();
  let runs = 0;
  while (runs < warmup + 20 || (Date.now() - t0 < 2000 && runs < 2000)) {
    out = await sess.run(feeds);
    runs++;
  }
  sess.endProfiling();
  await sess.release();
  const y = out[Object.keys(out)[0]];
  fs.writeFileSync(outFile, Buffer.from(y.data.buffer, y.data.byteOffset, y.data.byteLength));
  const files = fs.readdirSync(profDir).filter(f => f.startsWith(path.basename(prefix) + '_'));
  const events = JSON.parse(fs.readFileSync(path.join(profDir, files[0]), 'utf8'));
  const times = events.filter(e => e.cat === 'Session' && e.name === 'model_run')
                      .sort((p, q) => p.ts - q.ts).slice(warmup).map(e => e.dur / 1000).sort((p, q) => p - q);
  const kernels = {};
  for (const e of events)
    if (e.cat === 'Node' && typeof e.name === 'string' && e.name.endsWith('_kernel_time'))
      kernels[e.args.op_name] = true;
  const n = times.length;
  const median = n % 2 ? times[(n - 1) / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
  console.log(JSON.stringify({ median, runs: n, kernels: Object.keys(kernels) }));
}
main().catch(e => { console.error(String(e)); process.exit(1); });
