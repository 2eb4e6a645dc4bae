# bash completion for hottask(1). Installed by `make install`; Tests/EndToEndTests checks that it
# offers every option of `hottask --help` and file names where a path is asked for.

# The store's tags that start with $1, each with $2 before it (+ or - in a filter, where a
# tag with a space cannot be named; none after --tag, where it is quoted): what
# `hottask --list --tags` prints for the store and config this command line names. Read line
# by line, never through compgen -W, which would expand a `$(...)` in a tag synced in.
_hottask_tags() {
    local i tag value
    local -a store=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --file|--config)
                # The path as typed: its quotes taken off and ~ made the home folder.
                value=${COMP_WORDS[i+1]#[\'\"]}
                value=${value%[\'\"]}
                store+=("${COMP_WORDS[i]}" "${value/#\~/$HOME}") ;;
        esac
    done
    COMPREPLY=()
    while IFS= read -r tag; do
        [[ $tag == "$1"* ]] || continue
        if [[ -n $2 ]]; then
            [[ $tag == *" "* ]] || COMPREPLY+=("$2$tag")
        else
            printf -v tag %q "$tag"
            COMPREPLY+=("$tag")
        fi
    done < <("${COMP_WORDS[0]}" "${store[@]}" --list --tags 2>/dev/null)
}

_hottask() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local IFS=$'\n'
    case $prev in
        --file|--import|--export|--config|--ca-file)
            compopt -o filenames 2>/dev/null
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --export-format)
            COMPREPLY=($(compgen -W $'hottask\ntaskwarrior\ntodotxt\nics\nvdir' -- "$cur"))
            return ;;
        --import-format)
            COMPREPLY=($(compgen -W $'auto\nhottask\ntaskwarrior\ntodotxt\nics' -- "$cur"))
            return ;;
        --due)
            COMPREPLY=($(compgen -W $'today\ntomorrow\nmon\ntue\nwed\nthu\nfri\nsat\nsun\n+1d\n+1w\nnone' -- "$cur"))
            return ;;
        --sort)
            COMPREPLY=($(compgen -W $'manual\ndue' -- "$cur"))
            return ;;
        --note)
            COMPREPLY=($(compgen -W $'-\nnone' -- "$cur"))
            return ;;
        --repeat)
            COMPREPLY=($(compgen -W $'daily\nweekly\nmonthly\nyearly\nweekdays\nnone' -- "$cur"))
            return ;;
        --tag|--untag)
            _hottask_tags "$cur" ""
            return ;;
        --filter)
            # +tag and -tag for the store's tags, and the due: words; other words are free text.
            case $cur in
                -*) _hottask_tags "${cur#-}" - ;;
                +*|"") _hottask_tags "${cur#+}" + ;;
                *) COMPREPLY=() ;;
            esac
            COMPREPLY+=($(compgen -W $'due:today\ndue:overdue\ndue:week\ndue:none' -- "$cur"))
            return ;;
        --add|--done|--undone|--delete|--move|--edit|--sync-setup|--username|--password-command|--calendar|--in|--new-list|--rename-list|--delete-list|--move-to|--under)
            # Free text or a task handle: nothing to offer.
            COMPREPLY=()
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W $'--file\n--add\n--bonus\n--priority\n--config\n--list\n--stats\n--json\n--ids\n--open\n--tags\n--filter\n--quiet\n--done\n--undone\n--delete\n--edit\n--due\n--repeat\n--note\n--tag\n--untag\n--overdue\n--sort\n--undo\n--recover\n--move\n--export\n--export-format\n--import\n--import-format\n--replace\n--sync\n--force-delete\n--resync\n--sync-setup\n--username\n--password-command\n--calendar\n--ca-file\n--in\n--lists\n--new-list\n--rename-list\n--delete-list\n--move-to\n--with-tasks\n--under\n--version\n--help' -- "$cur"))
    fi
}
complete -F _hottask hottask
