#!/bin/sh
# Installs HotTask from this folder (the tarball `make dist` builds): the static binary, the
# man pages and the bash, zsh and fish completions. Nothing else is needed on the machine but
# libc, ncurses and, for sync, libcurl.
#
#     ./install.sh [--prefix DIR] [--uninstall]      (default prefix /usr/local; DESTDIR works)
set -eu

prefix=/usr/local
action=install
while [ $# -gt 0 ]; do
    case $1 in
    --prefix) prefix=${2:?--prefix needs a folder}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    --uninstall) action=uninstall; shift ;;
    -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (--prefix DIR, --uninstall)" >&2; exit 64 ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
to=${DESTDIR:-}$prefix
files="bin/hottask share/man/man1/hottask.1 share/man/man1/hottask-sync.1
share/bash-completion/completions/hottask share/zsh/site-functions/_hottask
share/fish/vendor_completions.d/hottask.fish"

if [ "$action" = uninstall ]; then
    for file in $files bin/hottask-sync; do rm -f "$to/$file"; done
    echo "removed HotTask from $to"
    exit 0
fi
for file in $files; do
    case $file in bin/*) mode=755 ;; *) mode=644 ;; esac
    install -d "$to/$(dirname "$file")"
    install -m "$mode" "$here/$file" "$to/$file"
done
# The sync helper is hottask itself, run by this name.
ln -sf hottask "$to/bin/hottask-sync"
echo "installed HotTask in $to: $to/bin/hottask"
