#!/usr/bin/env bash
# Mesa's lavapipe (a Vulkan driver on the CPU) for the onnx backend's webgpu test, unpacked into
# $TROVE_LAVAPIPE_DIR (default /opt/trove-lavapipe) instead of installed: bookworm's own Mesa 22.3
# is refused by Dawn ("No supported adapters"), and installing Mesa 25 from bookworm-backports
# would replace the system's Mesa under every other program. The test runs its child process with
# LD_LIBRARY_PATH and VK_ICD_FILENAMES pointing here. Needs LLVM 15 (libllvm15, bookworm).
set -euo pipefail
dir="${TROVE_LAVAPIPE_DIR:-/opt/trove-lavapipe}"
[ -f "$dir/usr/share/vulkan/icd.d/lvp_icd.json" ] && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-backports main
LIST
mkdir -p "$work/lists/partial" "$work/debs"
apt=(-o APT::Sandbox::User=root -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$work/lists")
apt-get "${apt[@]}" update -qq
command -v ldconfig >/dev/null && ldconfig -p | grep -q libLLVM-15 || apt-get install -y -qq --no-install-recommends libllvm15 >/dev/null
(cd "$work/debs" && apt-get "${apt[@]}" download -qq libvulkan1 &&
  apt-get "${apt[@]}" download -qq -t bookworm-backports mesa-vulkan-drivers mesa-libgallium libdrm2 libdrm-amdgpu1)
mkdir -p "$dir"
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$dir"; done
echo "lavapipe unpacked in $dir"
