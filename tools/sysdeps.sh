#!/usr/bin/env bash
# System packages: libraries for headless MuJoCo rendering (EGL, with OSMesa as a fallback) and Debian's chromium +
# chromium-driver for the browser tests of the teleop app and the notebooks. Installs them with apt when run as root;
# otherwise prints the exact command and fails. Fast and silent when they are present.
set -euo pipefail
PKGS="libegl1 libegl-mesa0 libgl1-mesa-dri libosmesa6 chromium chromium-driver"
missing=""
for lib in libEGL.so.1 libEGL_mesa.so.0 libOSMesa.so; do
  ldconfig -p 2>/dev/null | grep -q "$lib" || missing="$missing $lib"
done
for exe in chromium chromedriver; do command -v "$exe" >/dev/null || missing="$missing $exe"; done
[ -z "$missing" ] && exit 0
echo "[sysdeps] missing:$missing"
cmd="apt-get update && apt-get install -y --no-install-recommends $PKGS"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "[sysdeps] $cmd"
  DEBIAN_FRONTEND=noninteractive bash -c "$cmd" >/dev/null
else
  echo "[sysdeps] run as root:  sudo bash -c '$cmd'" >&2
  exit 1
fi
