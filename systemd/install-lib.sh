# shellcheck shell=bash
# What systemd/install.sh (the Pi) and systemd/install-pc.sh (the organiser's PC) both do, sourced by
# them after they have read their options. Expects SRC, PREFIX, PYTHON and DRY ("" or yes) to be set.

step() { printf '==> %s\n' "$*"; }
# run CMD...: print it, then run it (or only print it with --dry-run)
run() {
  printf '    $ %s\n' "$*"
  if [ -z "$DRY" ]; then "$@"; fi
}

# install_packages LABEL PACKAGE...: the Debian packages not yet installed (apt-get update only then)
install_packages() {
  local label=$1 p
  shift
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  step "Debian packages: $*$label"
  if [ ${#missing[@]} -gt 0 ]; then
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "    already installed"
  fi
}

# install_code: the checkout SRC copied to PREFIX (the old copy replaced, its venv kept)
install_code() {
  step "code: $SRC -> $PREFIX"
  if [ "$SRC" = "$PREFIX" ]; then
    echo "    installing in place"
    return
  fi
  run mkdir -p "$PREFIX"
  # Replace the old copy (files deleted from the repo must go too) but keep its venv.
  run find "$PREFIX" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
  printf '    $ tar -C %s --exclude=.git --exclude=.venv ... -cf - . | tar -C %s -xf -\n' "$SRC" "$PREFIX"
  if [ -z "$DRY" ]; then
    tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=__pycache__ --exclude=.pytest_cache \
        --exclude=.hypothesis --exclude='*.egg-info' --exclude=./sim-frames -cf - . \
      | tar -C "$PREFIX" --no-same-owner -xf -
  fi
  run chown -R root:root "$PREFIX"
}

# install_venv EXTRA [VENV OPTION...]: PREFIX/.venv with gameclock (EXTRA: "" or "[pi]")
install_venv() {
  local extra=$1
  shift
  step "venv: $PREFIX/.venv with gameclock$extra"
  # On an existing venv this keeps the installed packages and only resets pyvenv.cfg (so the
  # --system-site-packages choice always matches this machine).
  run "$PYTHON" -m venv "$@" "$PREFIX/.venv"
  run "$PREFIX/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$PREFIX$extra"
  # The service sees /opt read-only (ProtectSystem=strict): compile now, or every start compiles again.
  run "$PREFIX/.venv/bin/python" -m compileall -q "$PREFIX/firmware"
}
