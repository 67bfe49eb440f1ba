#!/bin/sh
# runtime/fuzz/make_seed_corpus.sh FMU_DIR OUT_DIR [MAX_BYTES]
#
# Builds the seed corpus of lsdae_fuzz_parsers from the unpacked model FMUs
# (build/fmus/<name>/): for each one, a mode-0 seed (its modelDescription.xml),
# and when it has an LS-DAE manifest a mode-1 seed (the manifest alone, read
# against the fuzzer's built-in HelloWorld description) and a mode-2 seed
# (description + separator + manifest). See fuzz_parsers.cpp for the layout;
# the mode byte is written as the digit '0', '1' or '2' (only its low two
# bits count), so every seed is a plain text file.
# Seeds larger than MAX_BYTES (default 65536, the -max_len we run with) are
# skipped: libFuzzer would only see their beginning. Files are named by their
# SHA-1, as libFuzzer names corpus files, so duplicates collapse.
set -eu
fmu_dir=${1:?usage: make_seed_corpus.sh FMU_DIR OUT_DIR [MAX_BYTES]}
out=${2:?usage: make_seed_corpus.sh FMU_DIR OUT_DIR [MAX_BYTES]}
max=${3:-65536}
manifest_path=extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml
separator='
<!--LSDAE-FUZZ-MANIFEST-->
'
mkdir -p "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

emit() {  # emit MODE_CHAR FILE [SEPARATOR FILE2]
  { printf "%s" "$1"; cat "$2"; if [ $# -gt 2 ]; then printf '%s' "$3"; cat "$4"; fi; } >"$tmp"
  if [ "$(wc -c <"$tmp")" -le "$max" ]; then
    cat "$tmp" >"$out/$(sha1sum "$tmp" | cut -d' ' -f1)"
  fi
}

count=0
for dir in "$fmu_dir"/*/; do
  md="$dir/modelDescription.xml"
  [ -f "$md" ] || continue
  emit 0 "$md"
  if [ -f "$dir/$manifest_path" ]; then
    emit 1 "$dir/$manifest_path"
    emit 2 "$md" "$separator" "$dir/$manifest_path"
  fi
  count=$((count + 1))
done
echo "make_seed_corpus: $count FMUs -> $(ls "$out" | wc -l) seeds in $out"
