#!/bin/sh
# Builds hottask-VERSION-linux-x86_64.tar.gz: the static release binary, the man pages and the
# completions in the layout of a prefix, with install.sh to copy them into one.
#
#     Packaging/build-dist.sh VERSION RELEASE_FOLDER OUTPUT.tar.gz
#
# Run from the repository's root (`make dist` does).
set -eu

version=$1
release=$2
output=$3
name=hottask-$version-linux-x86_64

work=$(mktemp -d "${TMPDIR:-/tmp}/hottask-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
top=$work/$name
install -d "$top/bin" "$top/share/man/man1" "$top/share/bash-completion/completions" \
    "$top/share/zsh/site-functions" "$top/share/fish/vendor_completions.d"
install -m 755 -s "$release/hottask" "$top/bin/"
# The sync helper is hottask itself, run by this name (install.sh makes the same link).
ln -s hottask "$top/bin/hottask-sync"
install -m 644 Assets/hottask.1 Assets/hottask-sync.1 "$top/share/man/man1/"
install -m 644 Assets/completions/hottask.bash "$top/share/bash-completion/completions/hottask"
install -m 644 Assets/completions/_hottask "$top/share/zsh/site-functions/_hottask"
install -m 644 Assets/completions/hottask.fish "$top/share/fish/vendor_completions.d/hottask.fish"
install -m 755 Packaging/install.sh "$top/install.sh"
install -m 644 Packaging/copyright "$top/COPYRIGHT"
# Owned by root and dated by the changelog's entry, so the same build gives the same tarball.
date=$(sed -n 's/^ -- .*  //p' Packaging/changelog | head -1)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="$date" -C "$work" -czf "$output" "$name"
