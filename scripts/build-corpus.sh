#!/usr/bin/env bash
# The real-document corpus of the RAG tests and the `ingest` bench: files nobody here wrote, of
# every type the loaders read, taken from Debian's documentation packages (debian-handbook,
# debian-reference-en) and converted to PDF and DOCX by LibreOffice (libreoffice-writer-nogui).
#
# Built once into $TOOLKIT_CORPUS_DIR (default /var/cache/toolkit-corpus/$CORPUS_VERSION) and
# reused while its corpus.json (written last) is there; an incomplete build is redone in a temp
# folder renamed into place, so a reader never sees half a corpus. Change CORPUS_VERSION when the
# selection changes. Installing the packages needs root (apt-get); without it a missing package
# stops this script at once with the command to run.
#
# Layout: files/ (what the tests ingest), sources/ (the HTML each PDF/DOCX was converted from,
# not ingested) and corpus.json (one entry per file: name, type, origin, source, family).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

CORPUS_VERSION=v1
CORPUS_DIR="${TOOLKIT_CORPUS_DIR:-/var/cache/toolkit-corpus/$CORPUS_VERSION}"
# LibreOffice has no font for Chinese or Japanese without fonts-droid-fallback (7 MB): its PDFs
# of those pages would hold one placeholder glyph per character instead of the text.
PACKAGES=(debian-handbook debian-reference-en libreoffice-writer-nogui fonts-droid-fallback)
HANDBOOK=/usr/share/doc/debian-handbook/html
REFERENCE=/usr/share/debian-reference
CONVERT_TIMEOUT=180

say() { echo "build-corpus: $*"; }

# Silent when the corpus is there (setup-machine.sh runs this every time).
[ -f "$CORPUS_DIR/corpus.json" ] && exit 0

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=()
for package in "${PACKAGES[@]}"; do installed "$package" || missing+=("$package"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "build-corpus: missing ${missing[*]}; install them with: sudo bash scripts/build-corpus.sh" >&2
    exit 1
  fi
  say "installing ${missing[*]}"
  apt-get update -qq >/dev/null
  # With recommends, as the packages were installed where this was tested.
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi

parent="$(dirname "$CORPUS_DIR")"
if ! mkdir -p "$parent" 2>/dev/null || [ ! -w "$parent" ]; then
  echo "build-corpus: cannot write $parent; run as root or set TOOLKIT_CORPUS_DIR to a writable folder" >&2
  exit 1
fi
# Left by a build that was killed outright (the trap below removes the others' on exit).
find "$parent" -maxdepth 1 -name ".building-*" -mmin +60 -exec rm -rf {} + 2>/dev/null || true
started=$SECONDS
work="$(mktemp -d "$parent/.building-$CORPUS_VERSION.XXXXXX")"
office_home="$(mktemp -d)"
trap 'rm -rf "$work" "$office_home"' EXIT
mkdir -p "$work/files" "$work/sources"
entries=()

# add NAME TYPE ORIGIN [SOURCE] [FAMILY]: records a file of files/ in corpus.json. Files of one
# family hold the same text (the reference as PDF, text and one HTML chapter).
add() {
  local entry="{\"name\":\"$1\",\"type\":\"$2\",\"origin\":\"$3\""
  [ -n "${4:-}" ] && entry+=",\"source\":\"$4\""
  [ -n "${5:-}" ] && entry+=",\"family\":\"$5\""
  entries+=("$entry}")
}

take() { # take ORIGIN NAME TYPE [FAMILY]: copies a file as it is
  [ -f "$1" ] || { echo "build-corpus: $1 is missing" >&2; exit 1; }
  cp "$1" "$work/files/$2"
  add "$2" "$3" "$1" "" "${4:-}"
}

# convert FORMAT LANG PAGE: a handbook page through LibreOffice, one soffice at a time (it
# refuses a second instance on the same profile), each within its own time limit.
convert() {
  local format="$1" lang="$2" page="$3"
  local stem="handbook-$lang-${page%.html}" origin="$HANDBOOK/$lang/$page"
  local filter="$format"
  [ "$format" = docx ] && filter='docx:MS Word 2007 XML'
  cp "$origin" "$work/sources/$stem.html"
  say "converting $lang/$page to $format"
  if ! HOME="$office_home" timeout --kill-after=10 "$CONVERT_TIMEOUT" soffice --headless \
    --norestore --nolockcheck --convert-to "$filter" --outdir "$office_home/out" \
    "$work/sources/$stem.html" >/dev/null 2>&1 || [ ! -s "$office_home/out/$stem.$format" ]; then
    echo "build-corpus: LibreOffice failed to convert $origin to $format (or took over ${CONVERT_TIMEOUT}s)" >&2
    exit 1
  fi
  mv "$office_home/out/$stem.$format" "$work/files/$stem.$format"
  add "$stem.$format" "$format" "$origin" "sources/$stem.html"
}

say "HTML pages (English, Japanese, Arabic, Russian, Chinese) and the reference's chapter 9"
for page in en-US/sect.http-web-server.html en-US/sect.ldap-directory.html \
  ja-JP/sect.selinux.html ar-MA/sect.virtualization.html ru-RU/sect.supervision.html \
  zh-CN/sect.dhcp.html; do
  take "$HANDBOOK/$page" "handbook-${page%%/*}-$(basename "$page")" html
done
take "$REFERENCE/ch09.en.html" debian-reference-ch09.html html debian-reference

say "the reference as PDF and as text"
take "$REFERENCE/debian-reference.en.pdf" debian-reference.pdf pdf debian-reference
gunzip -c "$REFERENCE/debian-reference.en.txt.gz" >"$work/files/debian-reference.txt"
add debian-reference.txt txt "$REFERENCE/debian-reference.en.txt.gz" "" debian-reference

say "Markdown READMEs"
for origin in /usr/share/doc/debian-reference-en/README.md.gz \
  /usr/share/doc/redis-server/README.md.gz /usr/share/doc/postgresql-common/README.md.gz; do
  package="$(basename "$(dirname "$origin")")"
  if [ ! -f "$origin" ]; then
    echo "build-corpus: $origin is missing (package $package; run scripts/setup-machine.sh)" >&2
    exit 1
  fi
  gunzip -c "$origin" >"$work/files/$package-README.md"
  add "$package-README.md" markdown "$origin"
done

for page in en-US/sect.apt-get.html el-GR/sect.remote-login.html ja-JP/sect.kernel-compilation.html; do
  convert pdf "${page%%/*}" "$(basename "$page")"
done
for page in en-US/sect.backup.html ar-MA/sect.apt-get.html zh-CN/sect.debian-internals.html \
  ru-RU/sect.config-misc.html; do
  convert docx "${page%%/*}" "$(basename "$page")"
done

{
  echo "{\"version\":\"$CORPUS_VERSION\",\"files\":["
  (IFS=','; echo "${entries[*]}")
  echo "]}"
} >"$work/corpus.json"
chmod -R a+rX "$work"
rm -rf "$CORPUS_DIR"
mv "$work" "$CORPUS_DIR"
trap 'rm -rf "$office_home"' EXIT
say "corpus of ${#entries[@]} files ($(du -sh "$CORPUS_DIR/files" | cut -f1)) built in $CORPUS_DIR in $((SECONDS - started)) s"
