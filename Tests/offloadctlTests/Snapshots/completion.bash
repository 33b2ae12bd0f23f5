#!/bin/bash

__offloadctl_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__offloadctl_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__offloadctl_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__offloadctl_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_offloadctl() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    demo|capture|inbox|collection|item|organize|undo|history|store|photos|serve|gesture|key|help)
        # Offer subcommand argument completions
        "_offloadctl_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'demo capture inbox collection item organize undo history store photos serve gesture key help' -- "${cur}"))
        ;;
    esac
}

_offloadctl_demo() {
    repeating_flags=()
    non_repeating_flags=(--keep --version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0
}

_offloadctl_capture() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_inbox() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_collection() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|show|rename|move|delete|convert|import|export)
        # Offer subcommand argument completions
        "_offloadctl_collection_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list show rename move delete convert import export' -- "${cur}"))
        ;;
    esac
}

_offloadctl_collection_create() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --kind)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--kind')
        __offloadctl_add_completions -W 'list'$'\n''plan'
        return
        ;;
    esac
}

_offloadctl_collection_list() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_collection_show() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=(--collapsed)
    non_repeating_options=(--store --depth)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--collapsed')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection show -- --collapsed "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--depth')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection show -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_collection_rename() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection rename -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_collection_move() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --first --last --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --before --after)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--before')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection move -- --before "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--after')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection move -- --after "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection move -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_collection_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection delete -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_collection_convert() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --to)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--to')
        __offloadctl_add_completions -W 'list'$'\n''plan'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection convert -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_collection_import() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --kind)
    __offloadctl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--kind')
        __offloadctl_add_completions -W 'list'$'\n''plan'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    2)
        __offloadctl_add_completions -f
        return
        ;;
    esac
}

_offloadctl_collection_export() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --format)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--format')
        __offloadctl_add_completions -W 'markdown'$'\n''json'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion collection export -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|move|indent|outdent|done|undone|edit|remove|deleted|restore)
        # Offer subcommand argument completions
        "_offloadctl_item_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add move indent outdent done undone edit remove deleted restore' -- "${cur}"))
        ;;
    esac
}

_offloadctl_item_add() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --first --last --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --parent --before --after --role)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--parent')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item add -- --parent "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--before')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item add -- --before "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--after')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item add -- --after "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--role')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item add -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_move() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --all --root --first --last --version -h --help)
    repeating_options=(--except)
    non_repeating_options=(--store --in --to --into --before --after)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--in')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- --in "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--except')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- --except "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--to')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- --to "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--into')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- --into "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--before')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- --before "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--after')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- --after "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item move -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_indent() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item indent -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_outdent() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item outdent -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_done() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --all --version -h --help)
    repeating_options=(--except)
    non_repeating_options=(--store --in)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--in')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item done -- --in "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--except')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item done -- --except "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item done -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_undone() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --all --version -h --help)
    repeating_options=(--except)
    non_repeating_options=(--store --in)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--in')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item undone -- --in "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--except')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item undone -- --except "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item undone -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --role)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--role')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item edit -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --all --version -h --help)
    repeating_options=(--except)
    non_repeating_options=(--store --in)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--in')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item remove -- --in "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    '--except')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item remove -- --except "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item remove -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_deleted() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --in)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--in')
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion item deleted -- --in "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_item_restore() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_organize() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W "$(__offloadctl_custom_complete ---completion organize -- positional@0 "${COMP_CWORD}" "$(__offloadctl_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_offloadctl_undo() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_history() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --limit)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--limit')
        return
        ;;
    esac
}

_offloadctl_store() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    verify|repair|share|devices|compact|retire)
        # Offer subcommand argument completions
        "_offloadctl_store_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'verify repair share devices compact retire' -- "${cur}"))
        ;;
    esac
}

_offloadctl_store_verify() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_store_repair() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_store_share() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_store_devices() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_store_compact() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_store_retire() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_photos() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    start|status|swipe|rate|flag|label|skip|undo|review|change|commit|restore|rescan|sessions|cull|preview)
        # Offer subcommand argument completions
        "_offloadctl_photos_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'start status swipe rate flag label skip undo review change commit restore rescan sessions cull preview' -- "${cur}"))
        ;;
    esac
}

_offloadctl_photos_start() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --recursive --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --order --undo-depth)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--order')
        __offloadctl_add_completions -W 'capture-date'$'\n''mtime'
        return
        ;;
    '--undo-depth')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_photos_status() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac
}

_offloadctl_photos_swipe() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W 'left'$'\n''right'$'\n''up'
        return
        ;;
    esac
}

_offloadctl_photos_rate() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac
}

_offloadctl_photos_flag() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W 'pick'$'\n''reject'
        return
        ;;
    esac
}

_offloadctl_photos_label() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -W 'red'$'\n''yellow'$'\n''green'$'\n''blue'$'\n''purple'
        return
        ;;
    esac
}

_offloadctl_photos_skip() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac
}

_offloadctl_photos_undo() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac
}

_offloadctl_photos_review() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --pending --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session --decision)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    '--decision')
        __offloadctl_add_completions -W 'trash'$'\n''favorite'$'\n''keep'
        return
        ;;
    esac
}

_offloadctl_photos_change() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    2)
        __offloadctl_add_completions -W 'trash'$'\n''favorite'$'\n''keep'
        return
        ;;
    esac
}

_offloadctl_photos_commit() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --dry-run -y --yes --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session --batch-size)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    '--batch-size')
        return
        ;;
    esac
}

_offloadctl_photos_restore() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --all --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac
}

_offloadctl_photos_rescan() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    esac
}

_offloadctl_photos_sessions() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_photos_cull() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --new --recursive --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --session --order --viewer)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--session')
        return
        ;;
    '--order')
        __offloadctl_add_completions -W 'capture-date'$'\n''mtime'
        return
        ;;
    '--viewer')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_photos_preview() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --thumbnail --force --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --output -o)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--output'|'-o')
        __offloadctl_add_completions -f
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -f
        return
        ;;
    esac
}

_offloadctl_serve() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --tls --open --demo --version -h --help)
    repeating_options=(--root)
    non_repeating_options=(--store --host --port --record-traces)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--host')
        return
        ;;
    '--port')
        return
        ;;
    '--root')
        __offloadctl_add_completions -d
        return
        ;;
    '--record-traces')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_gesture() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    replay|eval)
        # Offer subcommand argument completions
        "_offloadctl_gesture_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'replay eval' -- "${cur}"))
        ;;
    esac
}

_offloadctl_gesture_replay() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --preset)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--preset')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -f
        return
        ;;
    esac
}

_offloadctl_gesture_eval() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --preset --density)
    __offloadctl_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--preset')
        return
        ;;
    '--density')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __offloadctl_add_completions -f
        return
        ;;
    esac
}

_offloadctl_key() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    between|spread|check)
        # Offer subcommand argument completions
        "_offloadctl_key_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'between spread check' -- "${cur}"))
        ;;
    esac
}

_offloadctl_key_between() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --after --before)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--after')
        return
        ;;
    '--before')
        return
        ;;
    esac
}

_offloadctl_key_spread() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store --count --after --before)
    __offloadctl_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    '--count')
        return
        ;;
    '--after')
        return
        ;;
    '--before')
        return
        ;;
    esac
}

_offloadctl_key_check() {
    repeating_flags=()
    non_repeating_flags=(--json --quiet --version -h --help)
    repeating_options=()
    non_repeating_options=(--store)
    __offloadctl_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--store')
        __offloadctl_add_completions -d
        return
        ;;
    esac
}

_offloadctl_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __offloadctl_offer_flags_options -1
}

complete -o filenames -F _offloadctl offloadctl
