#!/usr/bin/env bash
# Issue 36's GPU figures in one go: builds weft (Release), runs `weft bench --device gpu` at 16k, 64k and
# 256k vertices, the GPU step's tests (parity with the CPU, one hash, validation layer) and a live headless
# run on the GPU, and writes the figures to OUT (default gpu-bench-out/). Made for a fresh GPU machine
# (docs/gpu.md): where no Vulkan loader is installed, the .deb files in .gl/ are unpacked first (see
# /work/.library/device/README.md), and the NVIDIA driver's ICD is used where it is found.
#   scripts/gpu-bench.sh [OUT] [SIZES...]      e.g. scripts/gpu-bench.sh out 16k 64k
# Environment: BUILD (build dir, default build-gpu; an existing one is reused), STEPS (timed ticks, 20),
# DEVICE (gpu, or auto to refuse a CPU Vulkan device), SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-bench-out}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(16k 64k 256k)
build=${BUILD:-build-gpu}
steps=${STEPS:-20}
device=${DEVICE:-gpu}
mkdir -p "$out"

if ! ldconfig -p 2>/dev/null | grep -q libvulkan.so.1 && ls .gl/*.deb >/dev/null 2>&1; then
  echo "gpu-bench: no Vulkan loader: unpacking .gl/*.deb" >&2
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
nv=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f "$nv" ]; then export VK_DRIVER_FILES=$nv; fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log" 2>&1
  cmake --build "$build" --target weft gpu_tests >>"$out/cmake.log" 2>&1
fi

t0=$(date +%s)
"$build/weft" bench --device "$device" --sizes "${sizes[@]}" --steps "$steps" --json >"$out/bench.json" 2>"$out/bench.log"
cat "$out/bench.log" >&2
# The weft/warp model (cotton: triangles, hinges, plasticity) at the first size: the force stage's cost.
"$build/weft" bench --device "$device" --sizes "${sizes[0]}" --material cotton --steps "$steps" --json \
  >"$out/bench_cotton.json" 2>>"$out/bench.log" && tail -1 "$out/bench.log" >&2 ||
  echo "gpu-bench: the cotton bench failed (see $out/bench.log)" >&2
# The short validation: the parity, determinism and validation-layer tests on this device.
"$build/tests/gpu_tests" >"$out/gpu_tests.log" 2>&1 && echo "gpu-bench: gpu_tests passed" >&2 ||
  { echo "gpu-bench: gpu_tests FAILED (see $out/gpu_tests.log)" >&2; status=1; }
"$build/weft" run --mode headless --no-render --device "$device" --grid 127 --seconds 4 --json \
  >"$out/run_16k.json" 2>"$out/run_16k.log" || echo "gpu-bench: the live 16k run failed (see $out/run_16k.log)" >&2
t1=$(date +%s)

# One line per size for docs/performance.md (GPU ms per tick by stage, device name).
python3 - "$out/bench.json" "$out/bench_cotton.json" >"$out/figures.md" <<'PY'
import json, os, sys
rows = json.load(open(sys.argv[1]))["gpu_step"]
if os.path.exists(sys.argv[2]) and os.path.getsize(sys.argv[2]) > 0:
    rows += json.load(open(sys.argv[2]))["gpu_step"]
print("| vertices | material | device | upload | forces | solve | download | GPU total ms/tick | PCG iterations | wall ms/tick |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    g = r["gpu_ms"]
    dev = r["device_name"] + (" (a CPU)" if r["device_is_cpu"] else "")
    print(f"| {r['vertices']} | {r.get('material', 'springs')} | {dev} | {g['upload']:.3f} | {g['forces']:.3f} | {g['solve']:.3f} | {g['download']:.3f} | {g['total']:.3f} | {r['pcg_iterations_median']:g} | {r['wall_ms_per_tick_median']:.3f} |")# What stays on the CPU a tick and the bytes it moves across the bus (issue 36 build 3).
print()
print("| vertices | material | stages 1-2 CPU ms | stage 3 wall ms | stages 4-7 CPU ms | up / down kB a tick |")
print("|---|---|---|---|---|---|")
for r in rows:
    c, b = r.get("cpu_ms"), r.get("bytes_per_tick")
    if c and b:
        print(f"| {r['vertices']} | {r.get('material', 'springs')} | {c['elastics']:.3f} | {c['integrate_wall']:.3f} | {c['corrections']:.3f} | {b['up'] / 1e3:.1f} / {b['down'] / 1e3:.1f} |")
PY
cat "$out/figures.md"
echo "gpu-bench: figures in $out/ ($((t1 - t0)) s of runs)" >&2
exit ${status:-0}
