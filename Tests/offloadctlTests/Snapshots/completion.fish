function __offloadctl_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __offloadctl_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __offloadctl_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __offloadctl_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __offloadctl_parse_tokens -S
    set -l unparsed_tokens (__offloadctl_tokens -pc)
    switch $unparsed_tokens[1]
    case 'offloadctl'
        __offloadctl_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'demo'
            __offloadctl_parse_subcommand 0 'keep' 'version' 'h/help'
        case 'capture'
            __offloadctl_parse_subcommand -r 1 'store=' 'json' 'quiet' 'version' 'h/help'
        case 'inbox'
            __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'version' 'h/help'
        case 'collection'
            __offloadctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'create'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'kind=' 'version' 'h/help'
            case 'list'
                __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'version' 'h/help'
            case 'show'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'collapsed=+' 'depth=' 'version' 'h/help'
            case 'rename'
                __offloadctl_parse_subcommand 2 'store=' 'json' 'quiet' 'version' 'h/help'
            case 'delete'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'force' 'version' 'h/help'
            case 'convert'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'to=' 'version' 'h/help'
            case 'import'
                __offloadctl_parse_subcommand 2 'store=' 'json' 'quiet' 'kind=' 'version' 'h/help'
            case 'export'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'format=' 'version' 'h/help'
            end
        case 'item'
            __offloadctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'add'
                __offloadctl_parse_subcommand -r 2 'store=' 'json' 'quiet' 'parent=' 'before=' 'after=' 'first' 'last' 'version' 'h/help'
            case 'move'
                __offloadctl_parse_subcommand -r 1 'store=' 'json' 'quiet' 'in=' 'all' 'except=+' 'to=' 'into=' 'root' 'before=' 'after=' 'first' 'last' 'version' 'h/help'
            case 'indent'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'version' 'h/help'
            case 'outdent'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'version' 'h/help'
            case 'done'
                __offloadctl_parse_subcommand -r 1 'store=' 'json' 'quiet' 'in=' 'all' 'except=+' 'version' 'h/help'
            case 'undone'
                __offloadctl_parse_subcommand -r 1 'store=' 'json' 'quiet' 'in=' 'all' 'except=+' 'version' 'h/help'
            case 'edit'
                __offloadctl_parse_subcommand -r 2 'store=' 'json' 'quiet' 'version' 'h/help'
            case 'remove'
                __offloadctl_parse_subcommand -r 1 'store=' 'json' 'quiet' 'in=' 'all' 'except=+' 'version' 'h/help'
            end
        case 'organize'
            __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'version' 'h/help'
        case 'undo'
            __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'version' 'h/help'
        case 'history'
            __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'limit=' 'version' 'h/help'
        case 'store'
            __offloadctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'verify'
                __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'version' 'h/help'
            case 'repair'
                __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'version' 'h/help'
            end
        case 'key'
            __offloadctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'between'
                __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'after=' 'before=' 'version' 'h/help'
            case 'spread'
                __offloadctl_parse_subcommand 0 'store=' 'json' 'quiet' 'count=' 'after=' 'before=' 'version' 'h/help'
            case 'check'
                __offloadctl_parse_subcommand -r 1 'store=' 'json' 'quiet' 'version' 'h/help'
            end
        case 'gesture'
            __offloadctl_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'replay'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'preset=' 'version' 'h/help'
            case 'eval'
                __offloadctl_parse_subcommand 1 'store=' 'json' 'quiet' 'preset=' 'density=' 'version' 'h/help'
            end
        case 'help'
            __offloadctl_parse_subcommand -r 1 'version'
        end
    end
end

function __offloadctl_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __offloadctl_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __offloadctl_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __offloadctl_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__offloadctl_tokens -p)
    if test -z "$(__offloadctl_tokens -t)"
        set -l index (count (__offloadctl_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'offloadctl' -f
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'demo' -d 'Walk through capture, organize, nest, move, convert and undo on a sample store.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'capture' -d 'Add a thought to the inbox.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'inbox' -d 'List what is in the inbox.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'collection' -d 'Create, show, rename, delete, convert, import and export lists and plans.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'item' -d 'Add, move, indent, outdent, complete, edit and remove items.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'organize' -d 'Organize a collection in a full-screen view (needs a terminal).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'undo' -d 'Revert the last change.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'history' -d 'List recent changes, newest first (undo reverts the first).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'store' -d 'Check and repair the store\'s files.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'key' -d 'Make and check order keys (fractional indexing, base 62).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'gesture' -d 'Replay touch traces and evaluate gesture decisions on recorded strokes.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl demo" keep' -l 'keep' -d 'Keep the sample store and print its path.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl demo" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl capture" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl capture" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl capture" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl capture" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl capture" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl inbox" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl inbox" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl inbox" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl inbox" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl inbox" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'create' -d 'Create an empty list or plan.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'list' -d 'List the collections.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'show' -d 'Show a collection as an indented tree with ids and outline numbers.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'rename' -d 'Rename a collection.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'delete' -d 'Delete a collection (a non-empty one only with --force; undo brings it back).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'convert' -d 'Turn a plan into a list (flattened in outline order) or a list into a plan.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'import' -d 'Create a collection from a Markdown outline or an exported JSON file.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection" -eq 1' -fa 'export' -d 'Print a collection as a Markdown outline or JSON (import reads both back).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection create" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection create" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection create" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection create" kind' -l 'kind' -d 'list (flat) or plan (nested).' -rfka 'list plan'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection create" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection create" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection list" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection list" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection list" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection list" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show"' -l 'collapsed' -d 'Ids of items whose nested items are hidden.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show" depth' -l 'depth' -d 'Hide items deeper than this many levels (1 shows top-level items only).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection rename" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection rename" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection rename" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection rename" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection rename" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection delete" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection delete" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection delete" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection delete" force' -l 'force' -d 'Delete it even though it still has items.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection delete" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection delete" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection convert" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection convert" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection convert" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection convert" to' -l 'to' -d 'list or plan.' -rfka 'list plan'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection convert" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection convert" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection import" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection import" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection import" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl collection import" -eq 1' -F
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection import" kind' -l 'kind' -d 'list or plan (default: plan when the outline nests, else list).' -rfka 'list plan'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection import" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection export" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection export" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection export" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection export" format' -l 'format' -d 'markdown or json.' -rfka 'markdown json'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection export" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl collection export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'add' -d 'Add an item to a collection.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'move' -d 'Move items, with everything nested under them, within or between collections.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'indent' -d 'Nest an item under the item above it (it becomes that item\'s last child).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'outdent' -d 'Lift an item out of its parent (it goes right after the parent).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'done' -d 'Mark items done (several at once are one change).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'undone' -d 'Mark items not done (several at once are one change).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'edit' -d 'Replace an item\'s text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl item" -eq 1' -fa 'remove' -d 'Remove items with everything nested under them (one undo brings them back).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" parent' -l 'parent' -d 'Nest it under this item (plans only).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" before' -l 'before' -d 'Put it right before this item.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" after' -l 'after' -d 'Put it right after this item.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" first' -l 'first' -d 'Put it first (among the parent\'s children, or at the top).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" last' -l 'last' -d 'Put it last (the default).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item add" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" in' -l 'in' -d 'The collection the outline numbers, ranges and --all refer to (name or id).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" all' -l 'all' -d 'Select every item of the collection (needs --in).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move"' -l 'except' -d 'Leave these items out (same forms as the selectors).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" to' -l 'to' -d 'Move them to this collection (name or id).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" into' -l 'into' -d 'Nest them under this item (with --first or --last).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" root' -l 'root' -d 'Make them top-level items.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" before' -l 'before' -d 'Put it right before this item.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" after' -l 'after' -d 'Put it right after this item.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" first' -l 'first' -d 'Put it first (among the parent\'s children, or at the top).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" last' -l 'last' -d 'Put it last (the default).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item move" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item indent" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item indent" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item indent" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item indent" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item indent" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item outdent" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item outdent" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item outdent" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item outdent" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item outdent" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" in' -l 'in' -d 'The collection the outline numbers, ranges and --all refer to (name or id).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" all' -l 'all' -d 'Select every item of the collection (needs --in).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done"' -l 'except' -d 'Leave these items out (same forms as the selectors).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item done" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" in' -l 'in' -d 'The collection the outline numbers, ranges and --all refer to (name or id).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" all' -l 'all' -d 'Select every item of the collection (needs --in).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone"' -l 'except' -d 'Leave these items out (same forms as the selectors).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item undone" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item edit" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item edit" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item edit" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item edit" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item edit" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" in' -l 'in' -d 'The collection the outline numbers, ranges and --all refer to (name or id).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" all' -l 'all' -d 'Select every item of the collection (needs --in).'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove"' -l 'except' -d 'Leave these items out (same forms as the selectors).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl item remove" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl organize" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl organize" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl organize" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl organize" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl organize" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl undo" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl undo" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl undo" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl undo" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl undo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl history" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl history" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl history" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl history" limit' -l 'limit' -d 'How many changes to list.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl history" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl history" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl store" -eq 1' -fa 'verify' -d 'Check every file and the tree of every collection; exits 65 when something needs repair.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl store" -eq 1' -fa 'repair' -d 'Apply what verify proposes, after backing the store up inside it.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store verify" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store verify" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store verify" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store verify" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store verify" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store repair" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store repair" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store repair" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store repair" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl store repair" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl key" -eq 1' -fa 'between' -d 'Print one key strictly between two keys.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl key" -eq 1' -fa 'spread' -d 'Print N strictly increasing keys spread evenly between two keys.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl key" -eq 1' -fa 'check' -d 'Check that every key is valid.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" after' -l 'after' -d 'The key to sort after (default: the start).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" before' -l 'before' -d 'The key to sort before (default: the end).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key between" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" count' -l 'count' -d 'How many keys to print (0 to 10,000,000).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" after' -l 'after' -d 'The key all results sort after (default: the start).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" before' -l 'before' -d 'The key all results sort before (default: the end).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key spread" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key check" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key check" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key check" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key check" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl key check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl gesture" -eq 1' -fa 'replay' -d 'Print the event timeline and the decision of each stroke of a JSON-lines trace.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl gesture" -eq 1' -fa 'eval' -d 'Compare gesture decisions with the derived labels of a CSV stroke file.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture replay" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture replay" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture replay" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl gesture replay" -eq 1' -F
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture replay" preset' -l 'preset' -d 'The thresholds: ios, android or flutter (default: the trace\'s, else ios).' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture replay" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture replay" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" store' -l 'store' -d 'The store folder (default: $OFFLOAD_HOME, else $XDG_DATA_HOME/offload, else ~/.local/share/offload).' -rfa '(__offloadctl_complete_directories)'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" json' -l 'json' -d 'Print one JSON document (sorted keys, with a schemaVersion) instead of text.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" quiet' -l 'quiet' -d 'Print nothing but errors.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_positional "offloadctl gesture eval" -eq 1' -F
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" preset' -l 'preset' -d 'The thresholds: ios, android or flutter.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" density' -l 'density' -d 'Device pixels per point of the recording phones.' -rfka ''
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" version' -l 'version' -d 'Show the version.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl gesture eval" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'offloadctl' -n '__offloadctl_should_offer_completions_for_flags_or_options "offloadctl help" version' -l 'version' -d 'Show the version.'
