#!/usr/bin/env bash
# One-stop set-up on a fresh Debian 12 machine: installs the missing Debian packages, configures and
# builds Weft, then runs either the main job or the whole test suite.
#   scripts/setup.sh run   [weft args...]   install, build, run `weft` (default: a short validation run)
#   scripts/setup.sh test  [ctest args...]  install, build, run every test, then the threading tests
#                                           under ThreadSanitizer (what .ci/run calls)
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-run}"; shift || true

packages=(build-essential cmake ninja-build pkg-config libglm-dev doctest-dev nlohmann-json3-dev libcli11-dev
  libtinyobjloader-dev libtinygltf-dev libstb-dev libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers glslc libglfw3-dev
  libopenxr-dev libopenxr-loader1 xvfb xauth libbenchmark-dev
  # GLFW's X11 native header (the window test) needs these; libglfw3-dev only recommends them, and the window
  # test drives the mouse through XTest, loaded at run time.
  libx11-dev libxrandr-dev libxtst6)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_dir="${WEFT_BUILD_DIR:-build}"
werror=OFF; [ "${CI:-}" = "true" ] && werror=ON
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DWEFT_WERROR=$werror >/dev/null
cmake --build "$build_dir" -j"$(nproc)"

case "$mode" in
  run)
    if (($#)); then exec "$build_dir/weft" "$@"; else exec "$build_dir/weft" run; fi ;;
  test)
    (cd "$build_dir" && ctest --output-on-failure -j"$(nproc)" -LE validation "$@")
    # ThreadSanitizer build (CMakePresets.json preset "tsan", build-tsan/): only engine_tests and sim_tests, and
    # only the tests labelled "threading". WEFT_SKIP_TSAN=1 skips it.
    if [ "${WEFT_SKIP_TSAN:-0}" != "1" ]; then
      cmake --preset tsan -DWEFT_WERROR=$werror >/dev/null
      cmake --build --preset tsan -j"$(nproc)"
      ctest --preset tsan
    fi ;;
  *) echo "usage: scripts/setup.sh run|test [args...]" >&2; exit 2 ;;
esac
