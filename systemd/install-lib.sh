# shellcheck shell=bash
# What systemd/install.sh (the Pi) and systemd/install-pc.sh (the organiser's PC) both do, sourced by
# them after they have read their options. Expects NAME (the script's name, for messages), SRC (the
# checkout), PREFIX, PYTHON and DRY ("" or yes) to be set.
#
# PREFIX belongs to the installer only as far as its marker file PREFIX/.gameclock-install says: every
# folder or file the installer makes there is listed in it before it is made, and an update or an
# uninstall removes only what is listed. A non-empty PREFIX without the marker is refused; so is, on an
# update, a path the installer would make that is there but not listed (someone else's), and a symbolic
# link on the way to anything it makes or removes (issue 13 hole 8: --prefix must never delete what the
# installer did not put there).

MARKER=.gameclock-install
SITE_DIR=/etc/gameclock

step() { printf '==> %s\n' "$*"; }
# run CMD...: print it, then run it (or only print it with --dry-run)
run() {
  printf '    $ %s\n' "$*"
  if [ -z "$DRY" ]; then "$@"; fi
}
# refuse LINE...: the first line as NAME's error on stderr, the others indented under it; exit 1
refuse() {
  printf '%s: %s\n' "$NAME" "$1" >&2
  shift
  local line
  for line in "$@"; do printf '    %s\n' "$line" >&2; done
  exit 1
}

# install_packages LABEL PACKAGE...: the Debian packages not yet installed (apt-get update only then,
# once a run: APT_UPDATED)
APT_UPDATED=""
install_packages() {
  local label=$1 p
  shift
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  step "Debian packages: $*$label"
  if [ ${#missing[@]} -gt 0 ]; then
    if [ -z "$APT_UPDATED" ]; then
      run apt-get update -qq
      APT_UPDATED=yes
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    echo "    already installed"
  fi
}

# ------------------------------------------------------------------------------ what PREFIX holds
# no_links PATH: refuse when PREFIX/PATH or a folder on the way to it (below PREFIX) is a symbolic link:
# install -D and rm follow a link in the middle of a path, so a link there would make the installer write
# or remove outside PREFIX (PREFIX/systemd -> /etc: "rm -f PREFIX/systemd/README.md" is /etc's README.md).
no_links() {
  local p=$PREFIX part rest=$1
  [ "$rest" = . ] && return
  while [ -n "$rest" ]; do
    part=${rest%%/*}
    if [ "$part" = "$rest" ]; then rest=""; else rest=${rest#*/}; fi
    p="$p/$part"
    if [ -L "$p" ]; then
      refuse "$p is a symbolic link: the installer makes and removes only what is inside $PREFIX itself" \
        "replace the link by what it points to, or remove it, then run the installer again"
    fi
  done
}

# own KIND PATH: record in the marker that the installer makes PATH (relative to PREFIX; "." is PREFIX
# itself), before making it. KIND: dir (a folder, removed only when empty), tree (a folder and all in
# it), file. A line the marker (or this run) has already is not written again. A PATH that is already
# there but not in the marker is someone else's (made after the last install, or by hand): refused, so
# a reinstall never takes it over and an uninstall never removes it.
OWNED=$'\n'
own() {
  local line="$1 $2"
  case "$OWNED" in *$'\n'"$line"$'\n'*) return ;; esac
  no_links "$2"
  if ! grep -qxF -- "$line" "$PREFIX/$MARKER" 2>/dev/null; then
    if [ "$2" != . ] && { [ -e "$PREFIX/$2" ] || [ -L "$PREFIX/$2" ]; }; then
      refuse "$PREFIX/$2 is there but not listed in $PREFIX/$MARKER: it was not made by this installer, so it is not replaced" \
        "move it out of $PREFIX (or remove it if it is not needed), then run the installer again"
    fi
    printf '    $ echo %s >> %s\n' "'$line'" "$PREFIX/$MARKER"
    if [ -z "$DRY" ]; then printf '%s\n' "$line" >> "$PREFIX/$MARKER"; fi
  fi
  OWNED+="$line"$'\n'
}

# claim_prefix: PREFIX made here (when absent), or empty, or made by an earlier run (its marker);
# anything else is refused, so nothing the installer did not make is ever replaced or removed.
claim_prefix() {
  step "prefix: $PREFIX (what the installer makes there is listed in $MARKER)"
  if [ -L "$PREFIX" ]; then
    refuse "$PREFIX is a symbolic link: give the folder it points to with --prefix ($(readlink -f -- "$PREFIX"))"
  fi
  if [ -e "$PREFIX" ] && [ ! -d "$PREFIX" ]; then
    refuse "$PREFIX is not a directory"
  fi
  if [ -f "$PREFIX/$MARKER" ]; then
    echo "    made by an earlier install: updated"
    return
  fi
  if [ -d "$PREFIX" ] && [ -n "$(ls -A "$PREFIX")" ]; then
    local hint=("choose an empty or new folder with --prefix, or move this one away first")
    if [ -d "$PREFIX/.venv" ] && [ -f "$PREFIX/pyproject.toml" ] && [ -d "$PREFIX/firmware/gameclock" ]; then
      hint=("it looks like gameclock 0.1's copy of the checkout; that installer left no list of what it made,"
            "so this one removes none of it. Stop the clock and move the folder away, then install again:"
            "sudo systemctl stop gameclock; sudo mv $PREFIX $PREFIX.old"
            "(results and settings are in /var/lib/gameclock, not there; delete $PREFIX.old when all runs)")
    fi
    refuse "$PREFIX is not empty and was not made by this installer (no $PREFIX/$MARKER): refusing to install there" \
      "${hint[@]}"
  fi
  local made=""
  [ -d "$PREFIX" ] || made=yes
  run mkdir -p "$PREFIX"
  local header="# Made by gameclock's installer ($NAME): what it made in this folder, one per line ('dir PATH' a folder, removed when empty; 'tree PATH' a folder and all in it; 'file PATH'; '.' is this folder). Updates and --uninstall remove only these."
  printf '    $ echo %s > %s\n' "\"$header\"" "$PREFIX/$MARKER"
  if [ -z "$DRY" ]; then printf '%s\n' "$header" > "$PREFIX/$MARKER"; fi
  [ -z "$made" ] || own dir .
}

# install_file MODE PATH: SRC/PATH to PREFIX/PATH (its folder made and recorded when missing)
install_file() {
  local mode=$1 rel=$2 dir
  dir=$(dirname "$rel")
  if [ "$dir" != . ] && [ ! -d "$PREFIX/$dir" ]; then own dir "$dir"; fi
  own file "$rel"
  run install -D -m "$mode" "$SRC/$rel" "$PREFIX/$rel"
}

# uninstall_prefix: remove what the marker lists (deepest first), the marker, and PREFIX itself when the
# installer made it and nothing else is left in it
uninstall_prefix() {
  step "prefix: what the installer made in $PREFIX (listed in $MARKER)"
  if [ ! -f "$PREFIX/$MARKER" ]; then
    echo "    no $PREFIX/$MARKER: nothing there was made by this installer, nothing removed"
    return
  fi
  local kind rel entries=()
  while read -r kind rel; do
    case "$kind" in ''|'#'*) continue ;; esac
    case "$rel" in
      .) ;;
      ''|/*|..|../*|*/..|*/../*) refuse "$PREFIX/$MARKER: '$kind $rel' is not a path inside $PREFIX" ;;
    esac
    case "$kind" in dir|tree|file) ;; *) refuse "$PREFIX/$MARKER: unknown entry '$kind $rel'" ;; esac
    no_links "$rel"  # checked for every entry before anything is removed
    entries+=("$rel $kind")
  done < "$PREFIX/$MARKER"
  local entry
  while read -r rel kind; do
    [ -n "$rel" ] || continue
    case "$kind" in
      file) run rm -f -- "$PREFIX/$rel" ;;
      tree) run rm -rf -- "$PREFIX/$rel" ;;
      dir) [ "$rel" = . ] || run rmdir --ignore-fail-on-non-empty -- "$PREFIX/$rel" ;;
    esac
  done < <(for entry in "${entries[@]}"; do printf '%s\n' "$entry"; done | LC_ALL=C sort -r)
  run rm -f -- "$PREFIX/$MARKER"
  if printf '%s\n' "${entries[@]}" | grep -qxF '. dir'; then
    run rmdir --ignore-fail-on-non-empty -- "$PREFIX"
  fi
}

# ----------------------------------------------------------------------------- the code: a wheel
# install_venv EXTRA [VENV OPTION...]: the venv PREFIX/.venv (the installer's), then the wheel of the
# checkout built and installed in it with EXTRA ("" or "[pi]")
install_venv() {
  local extra=$1
  shift
  local py="$PREFIX/.venv/bin/python" version build
  step "venv: $PREFIX/.venv"
  own tree .venv
  # On an existing venv this keeps the installed packages and only resets pyvenv.cfg (so the
  # --system-site-packages choice always matches this machine).
  run "$PYTHON" -m venv "$@" "$PREFIX/.venv"

  version=$(sed -n 's/^__version__ = "\([^"]*\)"$/\1/p' "$SRC/firmware/gameclock/__init__.py")
  [ -n "$version" ] || refuse "no __version__ = \"...\" line in $SRC/firmware/gameclock/__init__.py"
  step "wheel: gameclock $version built from $SRC (a copy: the checkout is left as it is)"
  if [ -n "$DRY" ]; then
    build="${TMPDIR:-/tmp}/gameclock-build.XXXXXX"
    printf '    $ mktemp -d %s\n' "$build"
  else
    build=$(mktemp -d "${TMPDIR:-/tmp}/gameclock-build.XXXXXX")
    printf '    $ mktemp -d -> %s\n' "$build"
    # shellcheck disable=SC2064  # the folder's name is known now
    trap "rm -rf '$build'" EXIT
  fi
  printf '    $ tar -C %s --exclude=.git --exclude=.venv ... -cf - . | tar -C %s -xf -\n' "$SRC" "$build/src"
  if [ -z "$DRY" ]; then
    mkdir "$build/src"
    tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude=./dist \
        --exclude=__pycache__ --exclude=.pytest_cache --exclude=.hypothesis --exclude='*.egg-info' \
        --exclude=./sim-frames -cf - . \
      | tar -C "$build/src" --no-same-owner -xf -
  fi
  run "$py" -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$build/dist" "$build/src"
  local wheel="$build/dist/gameclock-$version-py3-none-any.whl"

  step "install: gameclock $version$extra into $PREFIX/.venv"
  # The dependencies (and gameclock, when this version is not the one installed) ...
  run "$py" -m pip install --quiet --disable-pip-version-check "$wheel$extra"
  # ... and this build's code even when the version is the same
  run "$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
  run rm -rf "$build"
  compile_venv
}

# compile_venv: every module in PREFIX/.venv compiled to bytecode, whatever pip was told (a pip.conf or
# PIP_NO_COMPILE can switch its own compiling off): the service cannot write __pycache__, and a module
# without its bytecode is compiled again at every start (issue 27: ~0.25 s -> ~2.5 s to the clock here,
# ~10x that on a Pi Zero 2). The system's packages a --system-site-packages venv sees are Debian's, compiled.
compile_venv() {
  step "bytecode: every module in $PREFIX/.venv compiled (the clock starts from it)"
  run "$PREFIX/.venv/bin/python" -m compileall -q -j 0 "$PREFIX/.venv/lib"
}

# ------------------------------------------------------------------- the organiser's files in /etc
# install_site [FILE...]: SITE_DIR (/etc/gameclock) for the organiser's own files (rules/*.toml,
# wiring.toml), each piece made only when missing: nothing there is ever overwritten, so those files
# survive every reinstall and uninstall. FILEs: more examples for SITE_DIR/examples.
install_site() {
  step "site folder: $SITE_DIR (the organiser's own rules/*.toml and wiring.toml; never overwritten)"
  local kept=() f
  if [ -d "$SITE_DIR" ]; then kept+=("$SITE_DIR"); else run install -d -m 0755 "$SITE_DIR"; fi
  if [ -d "$SITE_DIR/rules" ]; then kept+=("rules/"); else run install -d -m 0755 "$SITE_DIR/rules"; fi
  if [ -e "$SITE_DIR/README.md" ]; then
    kept+=("README.md")
  else
    run install -m 0644 "$SRC/systemd/etc/gameclock/README.md" "$SITE_DIR/README.md"
  fi
  if [ $# -gt 0 ]; then
    if [ -e "$SITE_DIR/examples" ]; then
      kept+=("examples/")
    else
      run install -d -m 0755 "$SITE_DIR/examples"
      for f in "$@"; do run install -m 0644 "$SRC/$f" "$SITE_DIR/examples/"; done
    fi
  fi
  if [ ${#kept[@]} -gt 0 ]; then echo "    already there, left as they are: ${kept[*]}"; fi
}
