# Sourced by the build-time scripts: `user_crate NAME [LIBRARY]` makes a throw-away binary crate
# NAME in the directory `$work` (removed when the script exits), depending on the library at
# LIBRARY (default: this checkout), and sets `$library` to that path.
user_crate() {
  library=$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/../..}" && pwd)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/src"
  cat > "$work/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.1.0"
edition = "2024"

[dependencies]
tensor-layout = { path = "$library" }
TOML
}
