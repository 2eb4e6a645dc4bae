#!/bin/sh
# Builds hottask_VERSION_amd64.deb from the release binaries, laid out as Debian policy asks:
# programs in /usr/bin, man pages gzipped in /usr/share/man/man1, completions where bash, zsh
# and fish look for packaged ones, the README, copyright and changelog in /usr/share/doc/hottask.
#
#     Packaging/build-deb.sh VERSION RELEASE_FOLDER OUTPUT.deb
#
# Run from the repository's root (`make deb` does). Needs dpkg-deb and dpkg-shlibdeps (dpkg-dev).
set -eu

version=$1
release=$2
output=$3

work=$(mktemp -d "${TMPDIR:-/tmp}/hottask-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
doc=$root/usr/share/doc/hottask

install -d -m 755 "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"
# Stripped, as policy asks of binaries that are not debug packages.
install -m 755 -s "$release/hottask" "$root/usr/bin/"
# The sync helper is hottask itself, run by this name: one binary in the package.
ln -s hottask "$root/usr/bin/hottask-sync"
# gzip -n: no name or time stamp inside, so the same input gives the same package.
for page in hottask hottask-sync; do
    gzip -9n <"Assets/$page.1" >"$root/usr/share/man/man1/$page.1.gz"
done
install -m 644 Assets/completions/hottask.bash "$root/usr/share/bash-completion/completions/hottask"
install -m 644 Assets/completions/_hottask "$root/usr/share/zsh/vendor-completions/_hottask"
install -m 644 Assets/completions/hottask.fish "$root/usr/share/fish/vendor_completions.d/hottask.fish"
install -m 644 Packaging/copyright "$doc/copyright"
# The README, where a person looks after installing; gzipped, as policy asks above 4 kB.
gzip -9n <README.md >"$doc/README.md.gz"
# A native package (no Debian revision): its changelog is changelog.gz.
gzip -9n <Packaging/changelog >"$doc/changelog.gz"
chmod 644 "$root"/usr/share/man/man1/*.gz "$doc/changelog.gz" "$doc/README.md.gz"

# The libraries the binaries link, as package names and versions: dpkg-shlibdeps reads them
# from the ELF files and the system's shlibs, and wants a debian/control to be run beside.
mkdir -p "$work/debian"
printf 'Source: hottask\n\nPackage: hottask\nArchitecture: amd64\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O root/usr/bin/hottask 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
# libcurl is loaded only when a sync starts (dlopen), so no ELF field names it; the sync needs
# CURLOPT_PROTOCOLS_STR, from 7.85.0. Time zones are read from tzdata's files (ZoneInfo).
depends="$depends, libcurl4 (>= 7.85.0), tzdata"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: hottask
Version: $version
Architecture: amd64
Maintainer: HotTask maintainers <maintainers@users.noreply.a-seed-efe50a9a.example>
Installed-Size: $size
Depends: $depends
Recommends: bash-completion
Section: utils
Priority: optional
Description: task list for the terminal: Top Priority, Bonus, nothing lost
 HotTask keeps a list of tasks in two sections, Top Priority and Bonus, with a
 new-task input that is always there and a progress line that is always current.
 Every change is saved the moment it is made, in a store that a crash at any
 moment leaves whole. The same list is a script-friendly command (hottask --add,
 --done, --list, --json), exchanges tasks with Taskwarrior, todo.txt and
 iCalendar, and syncs with any CalDAV calendar (hottask-sync).
EOF
(cd "$root" && find usr -type f -exec md5sum {} + | sort -k 2) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# xz at level 1: fast, and within a few percent of the default level (which took a minute at 36 MB).
dpkg-deb --root-owner-group -Zxz -z1 --build "$root" "$output"
