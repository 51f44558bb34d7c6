#!/bin/sh
# docsearch-hook installer: downloads the release binary for this machine, verifies it against the release's
# SHA256SUMS, installs it and registers the hook with Claude Code (`docsearch-hook install`). The Claude Code
# plugin's launcher (bin/docsearch-hook) runs this script too, with --no-register, to fetch its binary.
#
#   curl -fsSL https://github.com/docsearch-hook/docsearch-hook/releases/latest/download/install.sh | sh
#   sh install.sh [--version X] [--dir DIR] [--no-register] [--help]
#
# POSIX sh on purpose (dash, busybox, macOS sh): run `shellcheck install.sh` after every change.
set -eu

NAME=docsearch-hook
DEFAULT_BASE_URL=https://github.com/docsearch-hook/docsearch-hook/releases
SOURCE_URL=https://github.com/docsearch-hook/docsearch-hook

say() { printf '%s install: %s\n' "$NAME" "$*"; }
warn() { printf '%s install: warning: %s\n' "$NAME" "$*" >&2; }
err() { printf '%s install: error: %s\n' "$NAME" "$*" >&2; }
die() {
  err "$@"
  exit 1
}

usage() {
  cat <<EOF
Installs $NAME, a Claude Code hook that keeps documentation searches on local docs.

Usage: sh install.sh [--version X] [--dir DIR] [--no-register]
       curl -fsSL $DEFAULT_BASE_URL/latest/download/install.sh | sh -s -- [options]

Options:
  --version X     release to install, e.g. 0.1.0 or v0.1.0 (default: latest)
  --dir DIR       where to put the binary (default: \$HOME/.local/bin)
  --no-register   install the binary only; do not run \`$NAME install\`
  -h, --help      show this help

Environment (options win over it):
  DOCSEARCH_HOOK_VERSION       same as --version
  DOCSEARCH_HOOK_INSTALL_DIR   same as --dir
  DOCSEARCH_HOOK_NO_REGISTER   1: same as --no-register
  DOCSEARCH_HOOK_BASE_URL      releases URL (default: $DEFAULT_BASE_URL)
EOF
}

usage_error() {
  err "$@"
  echo "Run 'sh install.sh --help' for the options." >&2
  exit 2
}

tmp_dir=
staged=
cleanup() {
  if [ -n "$staged" ]; then rm -f "$staged"; fi
  if [ -n "$tmp_dir" ]; then rm -rf "$tmp_dir"; fi
}

parse_args() {
  version=${DOCSEARCH_HOOK_VERSION:-latest}
  base_url=${DOCSEARCH_HOOK_BASE_URL:-$DEFAULT_BASE_URL}
  install_dir=${DOCSEARCH_HOOK_INSTALL_DIR:-}
  register=1
  case ${DOCSEARCH_HOOK_NO_REGISTER:-} in
    1 | true | yes) register=0 ;;
  esac
  while [ $# -gt 0 ]; do
    case $1 in
      --version)
        [ $# -ge 2 ] || usage_error "--version needs a value, e.g. --version 0.1.0"
        version=$2
        shift 2
        ;;
      --version=*)
        version=${1#--version=}
        shift
        ;;
      --dir)
        [ $# -ge 2 ] || usage_error "--dir needs a value, e.g. --dir \"\$HOME/bin\""
        install_dir=$2
        shift 2
        ;;
      --dir=*)
        install_dir=${1#--dir=}
        shift
        ;;
      --no-register)
        register=0
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *) usage_error "unknown option: $1" ;;
    esac
  done

  version=${version#v}
  case $version in
    "") usage_error "the version is empty; use e.g. --version 0.1.0, or latest" ;;
    *[!A-Za-z0-9._+-]*) usage_error "not a version: \"$version\" (expected e.g. 0.1.0 or latest)" ;;
  esac
  base_url=${base_url%/}
  case $base_url in
    https://* | http://127.* | http://localhost[:/]* | http://localhost) ;;
    # The checksum comes from the same server as the binary: over plain http both can be swapped in transit.
    http://*) warn "$base_url is plain http: the checksum cannot protect a download an attacker can change" ;;
  esac

  if [ -z "$install_dir" ]; then
    [ -n "${HOME:-}" ] || die "HOME is not set; choose where to install with --dir DIR"
    install_dir=$HOME/.local/bin
  fi
  # `--dir=~/bin` reaches us unexpanded: the shell only expands a tilde at the start of a word.
  if [ -n "${HOME:-}" ]; then
    case $install_dir in
      \~) install_dir=$HOME ;;
      \~/*) install_dir=$HOME/${install_dir#\~/} ;;
    esac
  fi
  # Absolute, without a trailing slash: it is printed in the PATH line and compared with PATH's entries.
  case $install_dir in
    /*) ;;
    *) install_dir=$(pwd)/$install_dir ;;
  esac
  while [ "${#install_dir}" -gt 1 ] && [ "${install_dir%/}" != "$install_dir" ]; do
    install_dir=${install_dir%/}
  done
}

detect_target() {
  os=$(uname -s)
  arch=$(uname -m)
  exe=
  target=
  case $os in
    Linux)
      case $arch in
        x86_64 | amd64) target=x86_64-unknown-linux-gnu ;;
        aarch64 | arm64) target=aarch64-unknown-linux-gnu ;;
      esac
      ;;
    Darwin)
      case $arch in
        x86_64)
          # A shell under Rosetta reports x86_64 on Apple silicon; the native binary is the better choice there.
          if [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
            target=aarch64-apple-darwin
          else
            target=x86_64-apple-darwin
          fi
          ;;
        arm64 | aarch64) target=aarch64-apple-darwin ;;
      esac
      ;;
    MINGW* | MSYS* | CYGWIN*)
      case $arch in
        x86_64 | amd64)
          target=x86_64-pc-windows-msvc
          exe=.exe
          ;;
      esac
      ;;
  esac
  if [ -z "$target" ]; then
    die "no prebuilt $NAME for this machine (uname: $os $arch); prebuilt binaries exist for Linux and" \
      "macOS on x86_64/aarch64 and Windows on x86_64. Build from source instead (needs Deno 2.x):" \
      "git clone $SOURCE_URL && cd $NAME && deno task compile"
  fi
  asset=$NAME-$target$exe
  bin_name=$NAME$exe
}

find_tools() {
  if command -v curl >/dev/null 2>&1; then
    downloader=curl
  elif command -v wget >/dev/null 2>&1; then
    downloader=wget
  else
    die "neither curl nor wget is installed; install one of them and run this again"
  fi
  if command -v sha256sum >/dev/null 2>&1; then
    hasher=sha256sum
  elif command -v shasum >/dev/null 2>&1; then
    hasher=shasum
  elif command -v openssl >/dev/null 2>&1; then
    hasher=openssl
  else
    die "no SHA-256 tool found (sha256sum, shasum or openssl), and $NAME is never installed unverified;" \
      "install one of them (e.g. coreutils) and run this again"
  fi
}

# quoted WORD: WORD as a shell reads it back, in single quotes when it holds anything but safe characters, so
# that the commands the next steps print can be pasted as they are (an install folder with a space).
quoted() {
  case $1 in
    *[!A-Za-z0-9_./:@%+=-]* | '') printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")" ;;
    *) printf '%s' "$1" ;;
  esac
}

# download URL FILE
download() {
  if [ "$downloader" = curl ]; then
    # --retry covers timeouts and 408/429/5xx answers, not a 404: a missing file fails at once.
    # --speed-time: a transfer that stalls (under 1 byte a second for 60 s) fails, as wget's -T does, where it
    # would otherwise wait forever; a slow but moving download is not cut.
    curl -fsSL --retry 3 --retry-delay 2 --connect-timeout 20 --speed-limit 1 --speed-time 60 -o "$2" "$1"
  else
    # GNU wget already retries transient failures (20 tries); -T bounds each stalled attempt.
    wget -q -T 30 -O "$2" "$1"
  fi
}

# sha256 FILE: prints the lowercase hex digest. Reading stdin keeps the file name out of the tools' output.
sha256() {
  case $hasher in
    sha256sum) sha256sum <"$1" | awk '{ print tolower($1) }' ;;
    shasum) shasum -a 256 <"$1" | awk '{ print tolower($1) }' ;;
    openssl) openssl dgst -sha256 <"$1" | awk '{ print tolower($NF) }' ;;
  esac
}

release_url() {
  if [ "$version" = latest ]; then
    printf '%s/latest/download/%s\n' "$base_url" "$1"
  else
    printf '%s/download/v%s/%s\n' "$base_url" "$version" "$1"
  fi
}

# Fails before any download when the binary could not be written anyway. Writing is what really tells (root
# writes through a 0555 directory), so this only catches the clear cases; the copy below reports the rest.
check_install_dir() {
  probe=$install_dir
  while [ ! -e "$probe" ] && [ ! -L "$probe" ]; do probe=$(dirname "$probe"); done
  if [ ! -d "$probe" ]; then
    die "cannot create $install_dir: $probe is not a directory; choose another place with --dir DIR" \
      "(or DOCSEARCH_HOOK_INSTALL_DIR)"
  fi
  if [ ! -w "$probe" ]; then
    die "cannot write to $probe; choose another place with --dir DIR (or DOCSEARCH_HOOK_INSTALL_DIR)," \
      "e.g. --dir \"\$HOME/bin\""
  fi
}

# Prints the file to add a PATH line to, for the user's login shell.
shell_profile() {
  home=${HOME:-\~}
  case $login_shell in
    zsh) echo "$home/.zshrc" ;;
    bash) if [ "$os" = Darwin ]; then echo "$home/.bash_profile"; else echo "$home/.bashrc"; fi ;;
    fish) echo "$home/.config/fish/config.fish" ;;
    *) echo "$home/.profile" ;;
  esac
}

next_steps() {
  login_shell=${SHELL:-sh}
  login_shell=${login_shell##*/}
  on_path=0
  case ":${PATH:-}:" in
    *":$install_dir:"* | *":$install_dir/:"*) on_path=1 ;;
  esac
  if [ "$on_path" = 1 ]; then
    run=$NAME
    found=$(command -v "$NAME" 2>/dev/null || true)
    if [ -n "$found" ] && [ "$found" != "$dest" ]; then
      warn "another $NAME comes first on your PATH: $found (this one is $dest)"
    fi
  else
    run=$dest
  fi
  run=$(quoted "$run")
  echo
  echo "Next steps:"
  if [ "$on_path" = 0 ]; then
    echo "  - $install_dir is not on your PATH. Add this line to $(shell_profile), then open a new terminal:"
    if [ "$login_shell" = fish ]; then
      echo "      fish_add_path \"$install_dir\""
    else
      echo "      export PATH=\"$install_dir:\$PATH\""
    fi
  fi
  if [ "$register" = 0 ]; then
    echo "  - register the hook with Claude Code: $run install"
  fi
  echo "  - check the setup: $run doctor"
  echo "  - restart Claude Code (or start a new session) so it loads the hook"
  echo "  - to undo: $run uninstall, then delete $(quoted "$dest")"
}

main() {
  parse_args "$@"
  detect_target
  find_tools
  check_install_dir

  trap cleanup EXIT
  # dash runs the EXIT trap on `exit` only, so a signal is turned into one.
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
  tmp_dir=$(mktemp -d "${TMPDIR:-/tmp}/$NAME-install.XXXXXX") ||
    die "cannot create a temporary directory in ${TMPDIR:-/tmp}; set TMPDIR to a writable directory"

  label=$version
  [ "$version" = latest ] || label=v$version
  dest=$install_dir/$bin_name

  # The checksums come first: they are small, and they say whether this release has our binary at all.
  sums_url=$(release_url SHA256SUMS)
  if ! download "$sums_url" "$tmp_dir/SHA256SUMS"; then
    die "could not download $sums_url; check that release $label exists (see $base_url) and that this" \
      "machine can reach it"
  fi
  expected=$(awk -v f="$asset" '{ sub(/\r$/, "") } $2 == f || $2 == "*" f { print tolower($1); exit }' \
    "$tmp_dir/SHA256SUMS")
  case $expected in
    "" | *[!0-9a-f]*)
      die "release $label lists no checksum for $asset in SHA256SUMS; refusing to install an unverified" \
        "binary (is $target built for this release? see $base_url)"
      ;;
  esac
  [ ${#expected} -eq 64 ] || die "the SHA256SUMS line for $asset is malformed; refusing to install"

  if [ -d "$dest" ]; then
    die "$dest is a directory; move it away or choose another place with --dir DIR"
  fi
  if [ -f "$dest" ] && [ "$(sha256 "$dest")" = "$expected" ]; then
    [ -x "$dest" ] || chmod 755 "$dest"
    say "$dest is already up to date ($label, $target)"
  else
    asset_url=$(release_url "$asset")
    say "downloading $asset_url"
    if ! download "$asset_url" "$tmp_dir/$asset"; then
      die "could not download $asset_url; release $label may have no binary for $target (see $base_url)"
    fi
    actual=$(sha256 "$tmp_dir/$asset")
    if [ "$actual" != "$expected" ]; then
      err "checksum mismatch for $asset, so it was not installed (nothing was changed):"
      err "  expected (SHA256SUMS): $expected"
      err "  actual (downloaded):   $actual"
      die "the download is corrupt or was tampered with; try again, and report it at $SOURCE_URL/issues if" \
        "it persists"
    fi

    mkdir -p "$install_dir" 2>/dev/null ||
      die "cannot create $install_dir; choose another place with --dir DIR (or DOCSEARCH_HOOK_INSTALL_DIR)"
    # Staged next to the destination so that the final mv is a rename: atomic, and never a half-written
    # binary in place, even if this script is interrupted.
    staged=$install_dir/.$NAME.$$.tmp$exe
    if ! cp "$tmp_dir/$asset" "$staged" 2>/dev/null; then
      die "cannot write to $install_dir; choose another place with --dir DIR (or DOCSEARCH_HOOK_INSTALL_DIR)"
    fi
    chmod 755 "$staged"
    # Run before it replaces anything: a binary that cannot start here (an old libc, say) is no upgrade.
    # Its stderr is shown: the loader's own words (a missing GLIBC version, say) are the diagnosis.
    if ! installed_version=$("$staged" --version); then
      die "the downloaded $asset does not run on this machine ($os $arch), so it was not installed;" \
        "build from source instead: $SOURCE_URL"
    fi
    mv -f "$staged" "$dest" || die "cannot replace $dest (is $NAME running?); nothing was changed"
    staged=
    say "installed ${installed_version:-$NAME} to $dest"
  fi
  rm -rf "$tmp_dir"
  tmp_dir=

  if [ "$register" = 1 ]; then
    say "registering the hook: $dest install"
    # </dev/null: under `curl … | sh` stdin is the rest of this script, which the child must not consume.
    status=0
    "$dest" install </dev/null || status=$?
    if [ "$status" -ne 0 ]; then
      err "the binary is installed at $dest, but registering the hook failed (exit $status);"
      die "fix the problem above, then run: $dest install"
    fi
  fi
  next_steps
}

# Everything runs from here, on the last line, so that a download cut short under `curl … | sh` runs nothing.
main "$@"
