#!/usr/bin/env bash
# scripts/gpu-bench.sh on a GPU machine that cannot build weft (no compiler packages, no network): the
# binaries and the libraries they need are made here and carried in .gl/ (git-ignored).
#   scripts/gpu-bench-carried.sh prepare          here: a portable Release build (x86-64-v3, BUILD or build-carried/),
#                                                 its weft and gpu_tests, their libraries, the Vulkan loader,
#                                                 glvnd and the validation layer's .deb files, into .gl/
#   scripts/gpu-bench-carried.sh run OUT [SIZES]  there (as root): unpacks the loader, runs gpu-bench.sh on the
#                                                 carried binaries into /tmp/gb, archives it as OUT/gb.tgz
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
  b=${BUILD:-build-carried}
  cmake -S . -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_NATIVE=OFF \
    -DCMAKE_CXX_FLAGS=-march=x86-64-v3 -DCMAKE_C_FLAGS=-march=x86-64-v3 >/dev/null
  cmake --build "$b" --target weft gpu_tests
  mkdir -p .gl/bin/tests .gl/lib .gl/libfallback .gl/extra
  cp "$b"/weft .gl/bin/ && cp "$b"/tests/gpu_tests .gl/bin/tests/
  pwd >.gl/source_dir  # gpu_tests reads the assets through the source path it was built in
  for l in $(ldd .gl/bin/weft .gl/bin/tests/gpu_tests | awk '/=> \//{print $3}' | sort -u); do
    case $(basename "$l") in libc.so*|libm.so*|libdl.so*|libpthread.so*|libvulkan.so*) ;;
      libstdc++.so*|libgcc_s.so*) cp -L "$l" .gl/libfallback/ ;;
      *) cp -L "$l" .gl/lib/ ;; esac
  done
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  mkdir -p /tmp/amd64/partial && apt-get $o update >/dev/null
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  (cd .gl/extra && apt-get $o download vulkan-validationlayers)
  du -sh .gl ;;
run)
  out=${2:?OUT}; shift 2
  for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
  mkdir -p /tmp/vvl && dpkg -x .gl/extra/vulkan-validationlayers*.deb /tmp/vvl
  export VK_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
  export LD_LIBRARY_PATH=$PWD/.gl/lib:/tmp/vvl/usr/lib/x86_64-linux-gnu
  if ldd .gl/bin/weft | grep -q "not found"; then export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$PWD/.gl/libfallback; fi
  ldd .gl/bin/weft | grep "not found" && echo "gpu-bench-carried: libraries missing" >&2
  src=$(cat .gl/source_dir)  # gpu_tests reads the assets through the source path it was built in
  if [ ! -e "$src" ]; then mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; fi
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv || true
  mkdir -p "$out"
  SKIP_BUILD=1 BUILD=.gl/bin STEP_TIMEOUT=${STEP_TIMEOUT:-120} scripts/gpu-bench.sh /tmp/gb "$@" 2>&1 | tee "$out/console.log" || true
  cp /tmp/gb/figures.md "$out/" 2>/dev/null || true
  tar czf "$out/gb.tgz" -C /tmp gb ;;
*) sed -n 2,8p "$0"; exit 2 ;;
esac
