const fs = require('fs');
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const map = {
  'android-arm64': [['android'], ['arm64']],
  'darwin-arm64': [['darwin'], ['arm64']],
  'darwin-x64': [['darwin'], ['x64']],
  'linux-arm64': [['linux'], ['arm64']],
  'win32-x64': [['win32'], ['x64']],
  'linux-arm64-gnu': [['linux'], ['arm64'], ['glibc']],
  'linux-arm64-musl': [['linux'], ['arm64'], ['musl']],
  'wasm32-wasi': [null, ['wasm32']],
  'win32-arm64-msvc': [['win32'], ['arm64']],
  'win32-x64-msvc': [['win32'], ['x64']],
  'freebsd-x64': [['freebsd'], ['x64']],
  'linux-arm-gnueabihf': [['linux'], ['arm']],
};
let n = 0;
for (const [, v] of Object.entries(lock.packages)) {
  const opt = v.optionalDependencies || {};
  for (const [dep, ver] of Object.entries(opt)) {
    const key = 'node_modules/' + dep;
    if (lock.packages[key]) continue;
    const suf = Object.keys(map).find((s) => dep.endsWith('-' + s));
    if (!suf) {
      console.log('skip', dep);
      continue;
    }
    const [os, cpu, libc] = map[suf];
    const e = { version: ver };
    if (cpu) e.cpu = cpu;
    if (v.dev) e.dev = true;
    if (libc) e.libc = libc;
    e.optional = true;
    if (os) e.os = os;
    lock.packages[key] = e;
    n++;
  }
}
const sorted = {};
for (const k of Object.keys(lock.packages).sort()) sorted[k] = lock.packages[k];
lock.packages = sorted;
fs.writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');
console.log('added', n);
