# fish completion for hottask(1). Installed by `make install`.
complete -c hottask -f
# The store's tags: what `hottask --list --tags` prints for the store and config this command
# line names.
function __hottask_tags
    set -l words (commandline -opc)
    set -l store
    for i in (seq 2 (count $words))
        if contains -- $words[$i] --file --config; and test $i -lt (count $words)
            set -a store $words[$i] $words[(math $i + 1)]
        end
    end
    $words[1] $store --list --tags 2>/dev/null
end
# After --filter: +tag and -tag (a tag with a space cannot be named there) and the due: words.
function __hottask_filter
    for tag in (__hottask_tags | string match -v '* *')
        printf '+%s\n-%s\n' $tag $tag
    end
    printf '%s\n' due:today due:overdue due:week due:none
end
complete -c hottask -l file -r -F -d 'Use this store file'
complete -c hottask -l add -x -d 'Add a task on top of Top Priority'
complete -c hottask -l bonus -d 'With --add: put the new tasks in Bonus'
complete -c hottask -l priority -d 'With --add: put the new tasks in Top Priority'
complete -c hottask -l config -r -F -d 'Read this config file'
complete -c hottask -l list -d 'Print the summary and both sections, numbered'
complete -c hottask -l stats -d 'Print what was added and completed per day, and the last 14 days as a chart'
complete -c hottask -l in -x -d 'The list a task is in or goes to'
complete -c hottask -l lists -d 'Print each list with its open and done counts'
complete -c hottask -l new-list -x -d 'Make an empty list'
complete -c hottask -l rename-list -x -d 'Rename a list; its tasks follow'
complete -c hottask -l delete-list -x -d 'Delete a list (with --move-to LIST or --with-tasks when it holds tasks)'
complete -c hottask -l move-to -x -d 'With --delete-list: move its tasks to this list'
complete -c hottask -l with-tasks -d 'With --delete-list: delete its tasks too'
complete -c hottask -l under -x -d 'With --add or --edit: the parent task (none: top-level)'
complete -c hottask -l json -d 'With --list, --stats or --add: print JSON'
complete -c hottask -l ids -d 'With --list: show short ids'
complete -c hottask -l open -d 'With --list: only open tasks'
complete -c hottask -l tags -d 'With --list: print only the tags in use'
complete -c hottask -l filter -x -a '(__hottask_filter)' -d 'With --list or --stats: only tasks that match (+tag -tag due:today words)'
complete -c hottask -s q -l quiet -d 'Leave out the lines that say what a command did'
complete -c hottask -l done -x -d 'Mark a task completed'
complete -c hottask -l undone -x -d 'Mark a task not completed'
complete -c hottask -l delete -x -d 'Delete a task'
complete -c hottask -l edit -x -d 'Give a task a new caption'
complete -c hottask -l due -x -a 'today tomorrow mon tue wed thu fri sat sun +1d +1w none' -d 'With --add or --edit: the due date'
complete -c hottask -l repeat -x -a 'daily weekly monthly yearly weekdays none' -d 'With --add or --edit: how the task repeats'
complete -c hottask -l note -x -a '- none' -d 'With --add or --edit: the note (- reads stdin, none clears it)'
complete -c hottask -l tag -x -a '(__hottask_tags)' -d 'With --add or --edit: give the task this tag'
complete -c hottask -l untag -x -a '(__hottask_tags)' -d 'With --edit: take this tag away'
complete -c hottask -l overdue -d 'With --list: only open tasks whose due date has passed'
complete -c hottask -l sort -x -a 'manual due' -d 'With --list: the order (due: by due date)'
complete -c hottask -l undo -d 'Take back the last change'
complete -c hottask -l recover -d 'Make a damaged store whole, keeping every readable change'
complete -c hottask -l move -x -d 'Move a task to the other section'
complete -c hottask -l export -r -F -d 'Write the tasks to a file, or - for stdout'
complete -c hottask -l export-format -x -a 'hottask taskwarrior todotxt ics vdir' -d 'The format --export writes'
complete -c hottask -l import -r -F -d 'Merge tasks from a file, or - for stdin'
complete -c hottask -l import-format -x -a 'auto hottask taskwarrior todotxt ics' -d 'The format --import reads'
complete -c hottask -l replace -d 'With --import: replace the whole list'
complete -c hottask -l sync -d 'Sync with the CalDAV calendar in the config'
complete -c hottask -l force-delete -d 'With --sync: apply deletions a sync refused for want of proof'
complete -c hottask -l resync -d 'With --sync: keep every task of both sides, delete nothing'
complete -c hottask -l sync-setup -x -d 'Find the CalDAV calendar for tasks and write [sync]'
complete -c hottask -l username -x -d 'With --sync-setup: the user name'
complete -c hottask -l password-command -x -d 'With --sync-setup: a command that prints the password'
complete -c hottask -l calendar -x -d 'With --sync-setup: the calendar to sync with'
complete -c hottask -l ca-file -r -F -d 'With --sync-setup: CA certificates to trust for HTTPS'
complete -c hottask -s V -l version -d 'Print the version'
complete -c hottask -s h -l help -d 'Show help'
