#!/bin/sh
# After `make test`: fails, naming them, if any process whose command line names this run's
# temp folder (the app, tmux servers, peers such as CalDAV servers) or any tmux socket of the
# run is still there. Waits a few seconds first: a test's clean-up may still be finishing.
#
# The folder comes in RUN_FOLDER, not as an argument, so that this script's own command line
# does not name it; anything but a test-run folder is refused (an empty pattern matches all).
run_folder=${RUN_FOLDER:-}
case "$run_folder" in
    /*/hottask-test-run.?*) ;;
    *) echo "check-leftovers: RUN_FOLDER must name a hottask-test-run.* folder, not '$run_folder'" >&2; exit 2 ;;
esac
deadline=$(( $(date +%s) + 5 ))
while :; do
    left=$(pgrep -af -- "$run_folder" || true)
    sockets=$(find "$run_folder" -type s 2>/dev/null || true)
    [ -z "$left$sockets" ] && exit 0
    [ "$(date +%s)" -ge "$deadline" ] && break
    sleep 0.2
done
echo "error: make test left these behind:" >&2
[ -n "$left" ] && printf '%s\n' "$left" >&2
[ -n "$sockets" ] && printf 'socket %s\n' $sockets >&2
# End them, so that one failed run does not slow the next.
pkill -KILL -f -- "$run_folder" || true
exit 1
