#compdef offloadctl

__offloadctl_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__offloadctl_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __offloadctl_complete "${completions[@]:0:-1}"
    fi
}

__offloadctl_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_offloadctl() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'demo:Walk through capture, organize, nest, move, convert and undo on a sample store.'
            'capture:Add a thought to the inbox.'
            'inbox:List what is in the inbox.'
            'collection:Create, show, rename, reorder, delete, convert, import and export lists and plans.'
            'item:Add, move, indent, outdent, complete, edit and remove items.'
            'organize:Organize a collection in a full-screen view (needs a terminal).'
            'undo:Revert the last change.'
            'history:List recent changes, newest first (undo reverts the first).'
            'store:Check, repair and share the store'\''s files.'
            'photos:Cull a folder of photos: left trashes, right favorites, up keeps; then commit.'
            'serve:Cull photos in a browser: swipe, use the keys or the buttons, review and commit.'
            'gesture:Replay touch traces and evaluate gesture decisions on recorded strokes.'
            'key:Make and check order keys (fractional indexing, base 62).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        demo|capture|inbox|collection|item|organize|undo|history|store|photos|serve|gesture|key|help)
            "_offloadctl_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_demo() {
    local -i ret=1
    local -ar arg_specs=(
        '--keep[Keep the sample store and print its path.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_capture() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:words:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_inbox() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'create:Create an empty list or plan.'
            'list:List the collections.'
            'show:Show a collection as an indented tree with ids and outline numbers.'
            'rename:Rename a collection.'
            'move:Put a collection elsewhere in the order `collection list` shows.'
            'delete:Delete collections (non-empty ones only with --force; one undo brings them all back).'
            'convert:Turn a plan into a list (flattened in outline order) or a list into a plan.'
            'import:Create a collection from a Markdown outline or an exported JSON file.'
            'export:Print a collection as a Markdown outline or JSON (import reads both back).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        create|list|show|rename|move|delete|convert|import|export)
            "_offloadctl_collection_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_collection_create() {
    local -i ret=1
    local -ar ___kind=('list' 'plan')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:'
        '--kind[list (flat) or plan (nested).]:kind:{__offloadctl_complete "${___kind[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_list() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_show() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:{__offloadctl_custom_complete ---completion collection show -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--collapsed[Ids of items whose nested items are hidden.]:collapsed:{__offloadctl_custom_complete ---completion collection show -- --collapsed "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--depth[Hide items deeper than this many levels (1 shows top-level items only).]:depth:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_rename() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:{__offloadctl_custom_complete ---completion collection rename -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        ':new-name:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:{__offloadctl_custom_complete ---completion collection move -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--before[Put it right before this collection.]:collection:{__offloadctl_custom_complete ---completion collection move -- --before "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--after[Put it right after this collection.]:collection:{__offloadctl_custom_complete ---completion collection move -- --after "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--first[Put it first, right after the inbox.]'
        '--last[Put it last.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_delete() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:names:{__offloadctl_custom_complete ---completion collection delete -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--force[Delete them even though they still have items.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_convert() {
    local -i ret=1
    local -ar ___to=('list' 'plan')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:{__offloadctl_custom_complete ---completion collection convert -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--to[list or plan.]:to:{__offloadctl_complete "${___to[@]}"}'
        '--yes[Flatten a nested plan without asking.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_import() {
    local -i ret=1
    local -ar ___kind=('list' 'plan')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:'
        ':file:_files'
        '--kind[list or plan (default\: plan when the outline nests, else list).]:kind:{__offloadctl_complete "${___kind[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_collection_export() {
    local -i ret=1
    local -ar ___format=('markdown' 'json')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':name:{__offloadctl_custom_complete ---completion collection export -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--format[markdown or json.]:format:{__offloadctl_complete "${___format[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'add:Add an item to a collection.'
            'move:Move items, with everything nested under them, within or between collections.'
            'indent:Nest an item under the item above it (it becomes that item'\''s last child).'
            'outdent:Lift an item out of its parent (it goes right after the parent).'
            'done:Mark items done, with what is nested under them (one change).'
            'undone:Mark items not done, with what is nested under them (one change).'
            'edit:Replace an item'\''s text, its role in a plan, or both (one change).'
            'remove:Remove items with everything nested under them (one undo brings them back).'
            'deleted:List removed items that can be restored, newest removal first.'
            'restore:Put removed items back with everything nested under them (one undo).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        add|move|indent|outdent|done|undone|edit|remove|deleted|restore)
            "_offloadctl_item_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_item_add() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':collection:{__offloadctl_custom_complete ---completion item add -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '*:words:'
        '--parent[Nest it under this item (plans only).]:id:{__offloadctl_custom_complete ---completion item add -- --parent "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--before[Put it right before this item.]:id:{__offloadctl_custom_complete ---completion item add -- --before "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--after[Put it right after this item.]:id:{__offloadctl_custom_complete ---completion item add -- --after "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--first[Put it first (among the parent'\''s children, or at the top).]'
        '--last[Put it last (the default).]'
        '--role[The item'\''s role in a plan\: day, day\:N, fixed, segment\:N-M, free, or none to clear it.]:role:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_move() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:selector:{__offloadctl_custom_complete ---completion item move -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--in[The collection the outline numbers, ranges and --all refer to (name or id).]:collection:{__offloadctl_custom_complete ---completion item move -- --in "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--all[Select every item of the collection (needs --in).]'
        '--except[Leave these items out (same forms as the selectors).]:selector:{__offloadctl_custom_complete ---completion item move -- --except "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--to[Move them to this collection (name or id).]:collection:{__offloadctl_custom_complete ---completion item move -- --to "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--into[Nest them under this item (with --first or --last).]:id:{__offloadctl_custom_complete ---completion item move -- --into "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--root[Make them top-level items.]'
        '--before[Put it right before this item.]:id:{__offloadctl_custom_complete ---completion item move -- --before "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--after[Put it right after this item.]:id:{__offloadctl_custom_complete ---completion item move -- --after "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--first[Put it first (among the parent'\''s children, or at the top).]'
        '--last[Put it last (the default).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_indent() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':id:{__offloadctl_custom_complete ---completion item indent -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_outdent() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':id:{__offloadctl_custom_complete ---completion item outdent -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_done() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:selector:{__offloadctl_custom_complete ---completion item done -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--in[The collection the outline numbers, ranges and --all refer to (name or id).]:collection:{__offloadctl_custom_complete ---completion item done -- --in "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--all[Select every item of the collection (needs --in).]'
        '--except[Leave these items out (same forms as the selectors).]:selector:{__offloadctl_custom_complete ---completion item done -- --except "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_undone() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:selector:{__offloadctl_custom_complete ---completion item undone -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--in[The collection the outline numbers, ranges and --all refer to (name or id).]:collection:{__offloadctl_custom_complete ---completion item undone -- --in "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--all[Select every item of the collection (needs --in).]'
        '--except[Leave these items out (same forms as the selectors).]:selector:{__offloadctl_custom_complete ---completion item undone -- --except "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_edit() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':id:{__offloadctl_custom_complete ---completion item edit -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '*:words:'
        '--role[The item'\''s role in a plan\: day, day\:N, fixed, segment\:N-M, free, or none to clear it.]:role:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_remove() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:selector:{__offloadctl_custom_complete ---completion item remove -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--in[The collection the outline numbers, ranges and --all refer to (name or id).]:collection:{__offloadctl_custom_complete ---completion item remove -- --in "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--all[Select every item of the collection (needs --in).]'
        '--except[Leave these items out (same forms as the selectors).]:selector:{__offloadctl_custom_complete ---completion item remove -- --except "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_deleted() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--in[Only items removed from this collection (name or id).]:collection:{__offloadctl_custom_complete ---completion item deleted -- --in "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_item_restore() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_organize() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':collection:{__offloadctl_custom_complete ---completion organize -- positional@0 "${current_word_index}" "$(__offloadctl_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_undo() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_history() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--limit[How many changes to list.]:limit:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_store() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'verify:Check every file and the tree of every collection; exits 65 when something needs repair.'
            'repair:Apply what verify proposes, after backing the store up inside it.'
            'share:Let devices share this store through a synced folder: each device writes its own log.'
            'devices:List the devices sharing this store: what each has written and seen.'
            'compact:Rewrite this device'\''s log as a snapshot and its changes the others may lack.'
            'retire:Retire a device gone for good, so compaction no longer waits for it.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        verify|repair|share|devices|compact|retire)
            "_offloadctl_store_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_store_verify() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_store_repair() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_store_share() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_store_devices() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_store_compact() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_store_retire() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':device:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'start:Start a session over a photo folder (skipped files are listed on stderr).'
            'status:Show the session'\''s progress and the photo on screen.'
            'swipe:Decide the photo on screen: left = trash, right = favorite, up = keep.'
            'rate:Rate the photo on screen 0 to 5 stars (written as xmp:Rating at commit).'
            'flag:Flag the photo on screen: pick, or reject (written as xmp:Rating -1).'
            'label:Give the photo on screen a colour label (written as xmp:Label at commit).'
            'skip:Move the photo on screen to the end of the queue without a decision.'
            'undo:Undo the last decision or change (the last 5, since the last commit).'
            'review:List the decided photos, with their decision and commit state.'
            'change:Change the decision of a decided photo before it is committed.'
            'commit:Apply the pending decisions: trash to the Trash, favorites to XMP sidecars.'
            'restore:Move photos this session trashed back from the Trash to where they were.'
            'rescan:Add the photos that appeared in the folder since start; report vanished ones.'
            'sessions:List the photo sessions, oldest first.'
            'cull:Cull photos full-screen: ←/→/↑ decide, u undoes, r reviews, c commits, q quits.'
            'preview:Write the JPEG preview (or, with --thumbnail, the thumbnail) a photo embeds.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        start|status|swipe|rate|flag|label|skip|undo|review|change|commit|restore|rescan|sessions|cull|preview)
            "_offloadctl_photos_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_photos_start() {
    local -i ret=1
    local -ar ___order=('capture-date' 'mtime')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':dir:_files -/'
        '--recursive[Scan subfolders too.]'
        '--order[Order by EXIF capture date (else modification time), or by mtime only.]:order:{__offloadctl_complete "${___order[@]}"}'
        '--undo-depth[How many actions undo can take back.]:undo-depth:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_status() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_swipe() {
    local -i ret=1
    local -ar _direction=('left' 'right' 'up')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        ':direction:{__offloadctl_complete "${_direction[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_rate() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        ':stars:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_flag() {
    local -i ret=1
    local -ar _flag=('pick' 'reject')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        ':flag:{__offloadctl_complete "${_flag[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_label() {
    local -i ret=1
    local -ar _colour=('red' 'yellow' 'green' 'blue' 'purple')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        ':colour:{__offloadctl_complete "${_colour[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_skip() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_undo() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_review() {
    local -i ret=1
    local -ar ___decision=('trash' 'favorite' 'keep')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '--decision[Only photos with this decision\: trash, favorite or keep.]:decision:{__offloadctl_complete "${___decision[@]}"}'
        '--pending[Only photos not committed yet.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_change() {
    local -i ret=1
    local -ar _decision=('trash' 'favorite' 'keep')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        ':photo:'
        ':decision:{__offloadctl_complete "${_decision[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_commit() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '--dry-run[List what would be done without touching any file.]'
        '(-y --yes)'{-y,--yes}'[Do not ask for confirmation.]'
        '--batch-size[Photos per batch (two journal syncs per batch).]:batch-size:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_restore() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '*:photos:'
        '--all[Restore every photo this session moved to the Trash.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_rescan() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_sessions() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_cull() {
    local -i ret=1
    local -ar ___order=('capture-date' 'mtime')
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--session[The session id (see `photos sessions`); the latest by default.]:id:'
        ':dir:_files -/'
        '--new[Start a new session over DIR even if one exists.]'
        '--recursive[Scan subfolders too (when a session starts).]'
        '--order[Order by capture-date or mtime (when a session starts).]:order:{__offloadctl_complete "${___order[@]}"}'
        '--viewer[Run this command with the photo'\''s path as last argument on every card (no shell).]:command:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_photos_preview() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':photo:_files'
        '(--output -o)'{--output,-o}'[The JPEG file to write.]:file:_files'
        '--thumbnail[Write the embedded thumbnail instead of the preview.]'
        '--force[Replace the output file when it exists.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_serve() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--host[The address to listen on.]:addr:'
        '--port[The port; 0 picks a free one.]:n:'
        '--tls[Serve HTTPS on loopback too (beyond loopback it always does), with the store'\''s own certificate.]'
        '--open[Open the address in the default browser.]'
        '--demo[Serve a throw-away store with a session over generated photos (removed on exit); your own store and Trash are never touched.]'
        '*--root[A folder the page may start sessions in (repeatable; default\: your home folder).]:dir:_files -/'
        '--record-traces[Write each stroke as a gesture trace (JSON lines) into this folder.]:dir:_files -/'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_gesture() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'replay:Print the event timeline and the decision of each stroke of a JSON-lines trace.'
            'eval:Compare gesture decisions with the derived labels of a CSV stroke file.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        replay|eval)
            "_offloadctl_gesture_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_gesture_replay() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':file:_files'
        '--preset[The thresholds\: ios, android or flutter (default\: the trace'\''s, else ios).]:preset:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_gesture_eval() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        ':file:_files'
        '--preset[The thresholds\: ios, android or flutter.]:preset:'
        '--density[Device pixels per point of the recording phones.]:density:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_key() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'between:Print one key strictly between two keys.'
            'spread:Print N strictly increasing keys spread evenly between two keys.'
            'check:Check that every key is valid.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        between|spread|check)
            "_offloadctl_key_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_offloadctl_key_between() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--after[The key to sort after (default\: the start).]:key:'
        '--before[The key to sort before (default\: the end).]:key:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_key_spread() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '--count[How many keys to print (0 to 10,000,000).]:count:'
        '--after[The key all results sort after (default\: the start).]:key:'
        '--before[The key all results sort before (default\: the end).]:key:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_key_check() {
    local -i ret=1
    local -ar arg_specs=(
        '--store[The store folder (default\: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).]:path:_files -/'
        '--json[Print one JSON document (sorted keys, with a schemaVersion) instead of text.]'
        '--quiet[Print nothing but errors.]'
        '*:keys:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_offloadctl_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

if [[ "${funcstack[1]}" = _offloadctl ]]; then
    _offloadctl "${@}"
else
    compdef _offloadctl offloadctl
fi
