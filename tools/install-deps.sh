#!/usr/bin/env bash
# Installs everything ssdlab needs to build and test, from Debian's packages
# (the list: tools/debian-packages.txt, shared with .ci/run).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  $(cat "$(dirname "$0")/debian-packages.txt") >/dev/null
echo "ssdlab dependencies installed"
