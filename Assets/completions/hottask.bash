# bash completion for hottask(1). Installed by `make install`; Tests/EndToEndTests checks that it
# offers every option of `hottask --help` and file names where a path is asked for.
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
        --add|--filter|--done|--undone|--delete|--move|--edit|--tag|--untag|--sync-setup|--username|--password-command|--calendar)
            # Free text or a task handle: nothing to offer.
            COMPREPLY=()
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W $'--file\n--add\n--bonus\n--priority\n--config\n--list\n--json\n--ids\n--open\n--filter\n--quiet\n--done\n--undone\n--delete\n--edit\n--due\n--repeat\n--note\n--tag\n--untag\n--overdue\n--sort\n--undo\n--recover\n--move\n--export\n--export-format\n--import\n--import-format\n--replace\n--sync\n--force-delete\n--resync\n--sync-setup\n--username\n--password-command\n--calendar\n--ca-file\n--version\n--help' -- "$cur"))
    fi
}
complete -F _hottask hottask
