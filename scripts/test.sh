#!/usr/bin/env bash
# Runs every test of the workspace: formatting, lints, documentation, unit, integration,
# property and X tests (under Xvfb), the web page in headless Chromium, and doctests. On a fresh Debian machine, run as root,
# it first installs what is missing. Fails when any step fails.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf '\n==> %s\n' "$*"; }

# Run a command as root: directly, or through sudo when not root.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null; then
        sudo "$@"
    else
        echo "error: need root (or sudo) to run: $*" >&2
        exit 1
    fi
}

deb_installed() {
    [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

# Debian packages that are missing, collected first so `apt-get update` runs at most once.
missing=()
need_package() {
    local package=$1
    if ! deb_installed "$package"; then
        missing+=("$package")
    fi
}

if ! command -v apt-get >/dev/null; then
    echo "note: no apt-get here; assuming the tools below are already installed" >&2
else
    # A C toolchain to link Rust programs and build native parts of dependencies.
    if ! command -v cc >/dev/null || ! command -v c++ >/dev/null; then
        need_package build-essential
    fi
    # Rust itself, when absent, comes from rustup over https.
    if ! command -v cargo >/dev/null && [ ! -x "$HOME/.cargo/bin/cargo" ]; then
        need_package curl
        need_package ca-certificates
    fi
    # The X tests run on a virtual X server.
    need_package xvfb
    need_package xauth
    need_package xfonts-base
    # The web page's tests drive a headless Chromium through chromedriver.
    need_package chromium
    need_package chromium-driver
    if [ "${#missing[@]}" -gt 0 ]; then
        say "installing ${missing[*]}"
        as_root apt-get update
        as_root env DEBIAN_FRONTEND=noninteractive \
            apt-get install -y --no-install-recommends "${missing[@]}"
    fi
fi

if ! command -v cargo >/dev/null; then
    if [ ! -x "$HOME/.cargo/bin/cargo" ]; then
        say "installing Rust with rustup"
        curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
            sh -s -- -y --profile minimal --component clippy,rustfmt
    fi
    export PATH="$HOME/.cargo/bin:$PATH"
fi
if command -v rustup >/dev/null; then
    installed_components=$(rustup component list --installed)
    for component in clippy rustfmt; do
        if ! grep -q "^$component" <<<"$installed_components"; then
            say "adding the $component component"
            rustup component add "$component"
        fi
    done
fi

say "cargo fmt"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check

say "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

say "cargo doc"
RUSTDOCFLAGS=-Dwarnings cargo doc --workspace --no-deps

say "fuzz targets compile"
cargo check --manifest-path fuzz/Cargo.toml --bins

say "cargo test (X tests under Xvfb)"
xvfb-run -a cargo test --workspace --all-targets

say "doctests"
cargo test --workspace --doc

say "all tests passed"
