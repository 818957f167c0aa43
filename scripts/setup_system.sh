#!/bin/sh
# Install the system packages ragix needs for OS-level tool confinement.
#
# Idempotent: does nothing when `bwrap` is already on PATH. CI calls this on a
# fresh machine; developers may run it too. Without root or without apt it only
# says what to install and exits 0, because ragix still works (layer-1
# validation alone, with a warning in `ragix doctor`).
set -eu

if command -v bwrap >/dev/null 2>&1; then
    echo "setup_system: bubblewrap already installed at $(command -v bwrap)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup_system: installing bubblewrap with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq bubblewrap
    echo "setup_system: bubblewrap installed at $(command -v bwrap)"
    exit 0
fi

echo "setup_system: bubblewrap (bwrap) is missing and cannot be installed automatically here."
echo "  Debian/Ubuntu: sudo apt-get install bubblewrap"
echo "  Fedora/RHEL:   sudo dnf install bubblewrap"
echo "  Arch:          sudo pacman -S bubblewrap"
echo "ragix will run tools with layer-1 validation only until it is installed."
exit 0
