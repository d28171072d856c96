#!/usr/bin/env bash
# Issue 36's GPU figures in one go: builds weft (Release), runs `weft bench --device gpu` at 16k, 64k and
# 256k vertices with each solve (block-Jacobi PCG, multigrid PCG, Chebyshev), live headless runs on the GPU at 16k and
# at the 256-quad grid, `validate interaction --device gpu --no-reference` at 16k and the GPU step's tests
# (parity with the CPU, one hash, validation layer), and writes the figures to OUT (default gpu-bench-out/).
# Each run has a time limit (STEP_TIMEOUT seconds, 150): one that hangs or crawls is reported, not waited on. Made for a fresh GPU machine
# (docs/gpu.md): where no Vulkan loader is installed, the .deb files in .gl/ are unpacked first (see
# /work/.library/device/README.md), and the NVIDIA driver's ICD is used where it is found.
#   scripts/gpu-bench.sh [OUT] [SIZES...]      e.g. scripts/gpu-bench.sh out 16k 64k
# Environment: BUILD (build dir, default build-gpu; an existing one is reused), STEPS (timed ticks, 20),
# DEVICE (gpu, or auto to refuse a CPU Vulkan device), SKIP_BUILD=1, STEP_TIMEOUT, SKIP_TESTS=1, SKIP_VALIDATE=1,
# VALIDATE (the solves validate interaction runs with: jacobi mg chebyshev).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-bench-out}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(16k 64k 256k)
build=${BUILD:-build-gpu}
steps=${STEPS:-20}
device=${DEVICE:-gpu}
limit=${STEP_TIMEOUT:-150}
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
# run NAME CMD...: stdout to OUT/NAME.json (NAME.txt with EXT=txt), stderr to OUT/NAME.log; a failure or a
# time-out is said, not fatal.
run() {
  local name=$1; shift
  local s=$(date +%s) rc=0
  timeout "$limit" "$@" >"$out/$name.${EXT:-json}" 2>"$out/$name.log" || rc=$?
  if [ $rc -eq 0 ]; then echo "gpu-bench: $name done in $(($(date +%s) - s)) s" >&2
  elif [ $rc -eq 124 ]; then echo "gpu-bench: $name stopped at its ${limit} s limit (see $out/$name.log)" >&2; status=1
  else echo "gpu-bench: $name FAILED, exit $rc (see $out/$name.log)" >&2; tail -5 "$out/$name.log" >&2; status=1; fi
}
run bench "$build/weft" bench --device "$device" --sizes "${sizes[@]}" --steps "$steps" --json
cat "$out/bench.log" >&2
run bench_mg "$build/weft" bench --device "$device" --sizes "${sizes[@]}" --steps "$steps" --preconditioner mg --json
cat "$out/bench_mg.log" >&2
# The Chebyshev solve (one dispatch an iteration, a fixed count: gpu/gpu_chebyshev.h) at its default 96 and at 192.
run bench_cheby "$build/weft" bench --device "$device" --sizes "${sizes[@]}" --steps "$steps" --preconditioner chebyshev --json
cat "$out/bench_cheby.log" >&2
run bench_cheby192 "$build/weft" bench --device "$device" --sizes "${sizes[@]}" --steps "$steps" --preconditioner chebyshev --chebyshev-iterations 192 --json
# The weft/warp model (cotton: triangles, hinges, plasticity) at the first size: the force stage's cost.
run bench_cotton "$build/weft" bench --device "$device" --sizes "${sizes[0]}" --material cotton --steps "$steps" --json
# Live: the sim thread at 240 Hz with a 90 Hz snapshot reader, at 16k and at 66k vertices (issue 36's bar).
run run_16k "$build/weft" run --mode headless --no-render --device "$device" --grid 127 --seconds 4 --json
run run_grid256 "$build/weft" run --mode headless --no-render --device "$device" --grid 256 --seconds 4 --json
# Issue 36's check at 16k, with each solve in VALIDATE (default all three: jacobi mg chebyshev).
if [ "${SKIP_VALIDATE:-0}" != 1 ]; then
  for pre in ${VALIDATE:-jacobi mg chebyshev}; do
    name=validate_interaction; [ "$pre" != jacobi ] && name=validate_interaction_$pre
    run $name "$build/weft" validate interaction --device "$device" --preconditioner "$pre" --no-reference --json
    tail -3 "$out/$name.log" >&2
  done
fi
# The short validation: the parity, determinism and validation-layer tests on this device.
if [ "${SKIP_TESTS:-0}" != 1 ]; then EXT=txt run gpu_tests "$build/tests/gpu_tests"; tail -3 "$out/gpu_tests.txt" >&2; fi
t1=$(date +%s)

# The figures for docs/performance.md: GPU ms per tick by stage, the CPU's share, the live runs.
python3 - "$out" >"$out/figures.md" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name + ".json")
    try:
        return json.load(open(p)) if os.path.getsize(p) > 0 else None
    except (OSError, ValueError):
        return None
rows = []
for name, pre in (("bench", "block Jacobi"), ("bench_mg", "multigrid"), ("bench_cheby", "Chebyshev 96"),
                  ("bench_cheby192", "Chebyshev 192"), ("bench_cotton", "block Jacobi")):
    d = load(name)
    for r in (d or {}).get("gpu_step", []):
        r["preconditioner"] = pre
        rows.append(r)
print("| vertices | material | preconditioner | device | upload | forces | solve | download | GPU total ms/tick | iterations | residual | dispatches an iteration / a tick | wall ms/tick |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    g = r["gpu_ms"]
    dev = r["device_name"] + (" (a CPU)" if r["device_is_cpu"] else "")
    print(f"| {r['vertices']} | {r.get('material', 'springs')} | {r['preconditioner']} | {dev} | {g['upload']:.3f} | {g['forces']:.3f} | {g['solve']:.3f} | {g['download']:.3f} | {g['total']:.3f} | {r['pcg_iterations_median']:g} | {r.get('pcg_residual_median', float('nan')):.2g} | {r.get('dispatches_per_iteration')} / {r.get('dispatches_recorded')} | {r['wall_ms_per_tick_median']:.3f} |")
# What stays on the CPU a tick and the bytes it moves across the bus (issue 36 build 3).
print()
print("| vertices | material | preconditioner | stages 1-2 CPU ms | stage 3 wall ms | stages 4-7 CPU ms | up / down kB a tick |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    c, b = r.get("cpu_ms"), r.get("bytes_per_tick")
    if c and b:
        print(f"| {r['vertices']} | {r.get('material', 'springs')} | {r['preconditioner']} | {c['elastics']:.3f} | {c['integrate_wall']:.3f} | {c['corrections']:.3f} | {b['up'] / 1e3:.1f} / {b['down'] / 1e3:.1f} |")
print()
print("| live run | vertices | ticks | skipped ticks | step ms p50 / p99 | GPU total ms/tick | device |")
print("|---|---|---|---|---|---|---|")
for name in ("run_16k", "run_grid256"):
    d = load(name)
    if not d:
        print(f"| {name} | failed | | | | | |")
        continue
    st, g = d.get("step_ms", {}), d.get("gpu_ms", {})
    print(f"| {name} | {d.get('vertices')} | {d.get('ticks')} | {d.get('skipped_ticks')} | {st.get('p50', float('nan')):.3f} / {st.get('p99', float('nan')):.3f} | {g.get('total', float('nan')):.3f} | {d.get('device_name')} |")
for name, pre in (("validate_interaction", "jacobi"), ("validate_interaction_mg", "mg"),
                  ("validate_interaction_chebyshev", "chebyshev")):
    v = load(name)
    if not v:
        continue
    checks = v.get("checks", [])
    passed = sum(1 for c in checks if c.get("pass"))
    print()
    print(f"validate interaction --device gpu --preconditioner {pre} --no-reference: {passed} of {len(checks)} checks passed")
    for c in checks:
        print(f"- {c.get('check')}: {c.get('value', '')} against {c.get('bound', '')} ({'pass' if c.get('pass') else 'FAIL'})")
PY
cat "$out/figures.md"
echo "gpu-bench: figures in $out/ ($((t1 - t0)) s of runs)" >&2
exit ${status:-0}
