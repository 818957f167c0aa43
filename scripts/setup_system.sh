#!/bin/sh
# Install the system packages ragix needs for OS-level tool confinement.
#
# Idempotent: installs nothing when `bwrap` is already on PATH. CI calls this on
# a fresh machine; developers may run it too. Without root or without apt it
# only says what to install and exits 0, because ragix still works (Landlock if
# the kernel has it, else layer-1 validation alone, with a warning in `ragix doctor`).
set -eu

probe() {
    # The same flags ragix uses; fails where user namespaces are restricted.
    bwrap --unshare-all --unshare-user --cap-drop ALL --die-with-parent --new-session \
        --ro-bind / / -- /bin/true >/dev/null 2>&1
}

report() {
    if probe; then
        echo "setup_system: bubblewrap works ($(command -v bwrap))"
    else
        echo "setup_system: bubblewrap is installed but cannot create a sandbox here"
        echo "  (user namespaces restricted? e.g. Ubuntu: sysctl kernel.apparmor_restrict_unprivileged_userns=0)"
        echo "  ragix falls back to Landlock or layer-1 validation; see 'ragix doctor'."
    fi
}

if command -v bwrap >/dev/null 2>&1; then
    echo "setup_system: bubblewrap already installed"
    report
    exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup_system: installing bubblewrap with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq bubblewrap
    report
    exit 0
fi

echo "setup_system: bubblewrap (bwrap) is missing and cannot be installed automatically here."
echo "  Debian/Ubuntu: sudo apt-get install bubblewrap"
echo "  Fedora/RHEL:   sudo dnf install bubblewrap"
echo "  Arch:          sudo pacman -S bubblewrap"
echo "Until then ragix confines tools with Landlock if the kernel has it, else layer-1 validation only."
exit 0
