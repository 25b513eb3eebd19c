#!/usr/bin/env bash
# Installs everything ssdlab needs to build and test, from Debian's packages.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  cmake ninja-build g++ make python3 \
  libfmt-dev libspdlog-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev \
  libboost-dev libboost-iostreams-dev libeigen3-dev \
  libgtest-dev libgmock-dev libbenchmark-dev >/dev/null
echo "ssdlab dependencies installed"
