#!/usr/bin/env bash
# Fails when a relative markdown link in a tracked *.md file, [text](path)
# or ![alt](path), names a file or folder that does not exist. URLs
# (scheme:...) and in-page anchors (#...) are skipped; a #fragment after a
# path is dropped. usage: scripts/check-doc-links.sh [REPO_ROOT]
set -uo pipefail
cd "${1:-$(dirname "$0")/..}"
bad=0
while IFS= read -r md; do
  [ -f "$md" ] || continue # deleted in the work tree, not yet in the index
  dir=$(dirname "$md")
  while IFS= read -r target; do
    target=${target%%#*}
    target=${target%% *}
    case $target in
      '' | *:*) continue ;;
      /*) path=.$target ;;
      *) path=$dir/$target ;;
    esac
    if [ ! -e "$path" ]; then
      echo "$md: broken link ($target)"
      bad=1
    fi
  done < <(grep -oE '\]\([^)]+\)' "$md" | sed -E 's/^\]\((.*)\)$/\1/')
done < <(git ls-files '*.md')
exit $bad
