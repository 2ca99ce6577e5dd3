// ONNX Runtime's session creation (graph optimisation and weight prepacking
// included) and first run, ROUNDS times per model, in one process. An
// untimed creation first starts ONNX Runtime's environment, unless --cold
// (then the first creation includes it); --runs=N times N more runs of each
// session after its first (steady state). Prints one JSON line per model:
//   {"model": ..., "create_ms": [...], "first_run_ms": [...], "run_ms": [...]}
//   node ort_session.js ORT_MODULE_DIR ROUNDS [--cold] [--runs=N] \
//        MODEL.onnx[:INPUT=FILE.bin,DTYPE,DIMS]... ...
// DIMS as 128x768. bench/compile/run.py runs it.
const ort = require(process.argv[2]);
const fs = require('fs');
const rounds = parseInt(process.argv[3], 10);
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const arrays = { uint8: Uint8Array, int8: Int8Array, float32: Float32Array };

function feedsOf(spec) {
  const feeds = {};
  for (const input of spec.split(':').slice(1)) {
    const [name, rest] = input.split('=');
    const [file, dtype, dims] = rest.split(',');
    const bytes = fs.readFileSync(file);
    const data = new arrays[dtype](bytes.buffer, bytes.byteOffset,
                                   bytes.length / arrays[dtype].BYTES_PER_ELEMENT);
    feeds[name] = new ort.Tensor(dtype, data, dims.split('x').map(Number));
  }
  return feeds;
}

(async () => {
  const flags = process.argv.slice(4).filter((a) => a.startsWith('--'));
  const specs = process.argv.slice(4).filter((a) => !a.startsWith('--'));
  const runsFlag = flags.find((a) => a.startsWith('--runs='));
  const runs = runsFlag ? parseInt(runsFlag.slice(7), 10) : 0;
  if (!process.argv.includes('--cold'))
    await ort.InferenceSession.create(specs[0].split(':')[0]);
  for (const spec of specs) {
    const model = spec.split(':')[0];
    const feeds = feedsOf(spec);
    const create = [], firstRun = [], steady = [];
    for (let r = 0; r < rounds; ++r) {
      let t0 = process.hrtime.bigint();
      const session = await ort.InferenceSession.create(model);
      create.push(ms(t0));
      t0 = process.hrtime.bigint();
      await session.run(feeds);
      firstRun.push(ms(t0));
      for (let i = 0; i < runs; ++i) {
        t0 = process.hrtime.bigint();
        await session.run(feeds);
        steady.push(ms(t0));
      }
      await session.release();
    }
    console.log(JSON.stringify({ model, create_ms: create, first_run_ms: firstRun,
                                 run_ms: steady }));
  }
})();
