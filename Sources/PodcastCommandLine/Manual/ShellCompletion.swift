/// Shell completion scripts for `podcast-watch` (bash, zsh, fish), generated from `CommandTable`:
/// the commands with their summaries, each command's options, and for values and operands
/// files, folders, fixed words, feed numbers or feed URLs. Feed numbers and URLs come from
/// `podcast-watch list --json` at completion time (the `--state` typed on the line is honoured
/// in bash); only the digits of `"id":N` are used, and only the URLs made of characters a shell
/// takes literally (`feedURLsSed`: letters, digits and `. _ ~ : / @ % + , = -`; a URL with a
/// query string or masked credentials is left out, its number still completes), and none is
/// ever evaluated by the shell (bash matches them with `[[ == ]]`, not `compgen -W`).
/// `make manual` writes the scripts; `make test-manual` loads each in its shell.
///
/// Pure functions of constant data; safe from any thread.
public enum ShellCompletion {
    /// The sed program that prints the feed numbers of `list --json` (one per line).
    static let feedIDsSed = #"s/^{"id":\([0-9][0-9]*\),.*/\1/p"#

    /// The sed program that prints the feed URLs of `list --json` (one per line) made only of
    /// characters no shell treats specially; others print nothing.
    static let feedURLsSed = #"s|^{"id":[0-9][0-9]*,"url":"\([A-Za-z0-9._~:/@%+,=-]*\)",.*|\1|p"#

    /// The bash functions that list the state's feed numbers and URLs (the `--state` typed on
    /// the line honoured).
    static let bashFunctions = """
        _podcast_watch_list() {
            local state=() i
            for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
                [[ ${COMP_WORDS[i]} == --state ]] && state=(--state "${COMP_WORDS[i + 1]}")
            done
            podcast-watch "${state[@]}" list --json 2>/dev/null
        }

        _podcast_watch_feed_ids() {
            _podcast_watch_list | sed -n '\(feedIDsSed)'
        }

        # Feed URLs starting with the word being typed. Bash splits words at ':', so the
        # word is read back from the line and each URL is offered without the part of it
        # before the current piece; files when no URL matches.
        _podcast_watch_feed_urls() {
            local line=${COMP_LINE:0:COMP_POINT} url
            local word=${line##*[[:space:]]}
            local prefix=${word%"$cur"}
            while IFS= read -r url; do
                [[ $url == "$word"* ]] && COMPREPLY+=("${url#"$prefix"}")
            done < <(_podcast_watch_list | sed -n '\(feedURLsSed)')
            if ((${#COMPREPLY[@]} == 0)); then
                compopt -o filenames
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
        }

        """

    /// For bash (`/usr/share/bash-completion/completions/podcast-watch`), bash 4 or newer.
    public static var bash: String {
        var out = """
            # bash completion for podcast-watch. Generated from its command table (make manual);
            # do not edit.

            \(bashFunctions)
            _podcast_watch() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
                local command="" i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
            \(bashCase(globalValued, indent: 12))) ((i++)) ;;
                    -*) ;;
                    *) command=${COMP_WORDS[i]}; break ;;
                    esac
                done
                COMPREPLY=()
                case "$command $prev" in

            """
        for (patterns, kind) in bashValueCases() {
            out += "    \(patterns))\n\(bashCompletion(kind, indent: 8))        return ;;\n"
        }
        out += """
                esac
                local options="\(CommandTable.globalOptions.map(\.name).joined(separator: " "))" operand=""
                case $command in
                "") options+=" \(CommandTable.commands.map(\.name).joined(separator: " ")) help" ;;

            """
        for command in CommandTable.commands {
            let names = command.options.map(\.name).joined(separator: " ")
            out +=
                "    \(command.name)) options+=\"\(names.isEmpty ? "" : " " + names)\" operand=\(bashOperand(command.operand)) ;;\n"
        }
        out += """
                help) options="" operand=command ;;
                esac
                if [[ $cur == -* || -z $command ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                elif [[ $operand == file ]]; then
                    compopt -o filenames
                    COMPREPLY=($(compgen -f -- "$cur"))
                elif [[ $operand == feed ]]; then
                    _podcast_watch_feed_urls
                elif [[ $operand == command ]]; then
                    COMPREPLY=($(compgen -W "\(CommandTable.commands.map(\.name).joined(separator: " "))" -- "$cur"))
                fi
            }
            complete -F _podcast_watch podcast-watch

            """
        return out
    }

    /// For zsh (`/usr/share/zsh/vendor-completions/_podcast-watch`), loaded by compinit.
    public static var zsh: String {
        var out = """
            #compdef podcast-watch
            # zsh completion for podcast-watch. Generated from its command table (make manual);
            # do not edit.

            _podcast_watch_feed_ids() {
              local -a ids
              ids=(${(f)"$(podcast-watch list --json 2>/dev/null | sed -n '\(feedIDsSed)')"})
              _describe -t feed-ids 'feed number' ids
            }

            # A subscribed feed's URL (added literally: compadd quotes what needs it), or a file.
            _podcast_watch_feed_urls() {
              local -a urls
              urls=(${(f)"$(podcast-watch list --json 2>/dev/null | sed -n '\(feedURLsSed)')"})
              _alternative 'feed-urls:feed URL:compadd -a urls' 'files:file:_files'
            }

            _podcast-watch() {
              local curcontext=$curcontext state line
              typeset -A opt_args
              _arguments -C \\
                '--state=[where the database lives]:directory:_files -/' \\
                '(- *)'{-h,--help}'[show help]' \\
                '(- *)--version[print the version]' \\
                '1:command:->command' \\
                '*::argument:->argument'
              case $state in
                command)
                  local -a commands
                  commands=(

            """
        for command in CommandTable.commands {
            out += "        \(zshQuote("\(command.name):\(command.summary)"))\n"
        }
        out += """
                    'help:show the usage of a command'
                  )
                  _describe -t commands command commands
                  ;;
                argument)
                  case $words[1] in

            """
        for command in CommandTable.commands {
            var specs = command.options.map { option -> String in
                guard let value = option.value else { return zshQuote(option.name) }
                return zshQuote("\(option.name)=:\(value):\(zshAction(option.kind))")
            }
            if let operand = command.operand { specs.append(zshQuote("1:operand:\(zshAction(operand))")) }
            let arguments = specs.isEmpty ? "_message 'no arguments'" : "_arguments " + specs.joined(separator: " ")
            out += "        \(command.name)) \(arguments) ;;\n"
        }
        out += """
                    help) _arguments '1:command:(\(CommandTable.commands.map(\.name).joined(separator: " ")))' ;;
                  esac
                  ;;
              esac
            }

            _podcast-watch "$@"

            """
        return out
    }

    /// For fish (`/usr/share/fish/vendor_completions.d/podcast-watch.fish`).
    public static var fish: String {
        var out = """
            # fish completion for podcast-watch. Generated from its command table (make manual);
            # do not edit.

            # The command on the line so far (empty before it): the first word not an option or
            # the value of --state.
            function __podcast_watch_command
                set -l tokens (commandline -opc)
                set -e tokens[1]
                while set -q tokens[1]
                    switch $tokens[1]
                        case --state
                            set -e tokens[1]
                        case '-*'
                        case '*'
                            echo $tokens[1]
                            return
                    end
                    set -e tokens[1]
                end
            end

            function __podcast_watch_using
                set -l command (__podcast_watch_command)
                test "$command" = "$argv[1]"
            end

            function __podcast_watch_needs_command
                set -l command (__podcast_watch_command)
                test -z "$command"
            end

            function __podcast_watch_feed_ids
                podcast-watch list --json 2>/dev/null | sed -n '\(feedIDsSed)'
            end

            function __podcast_watch_feed_urls
                podcast-watch list --json 2>/dev/null | sed -n '\(feedURLsSed)'
            end

            complete -c podcast-watch -f
            complete -c podcast-watch -l state -r -a '(__fish_complete_directories)' -d 'where the database lives'
            complete -c podcast-watch -s h -l help -d 'show help'
            complete -c podcast-watch -l version -d 'print the version'

            """
        for command in CommandTable.commands {
            out +=
                "complete -c podcast-watch -n __podcast_watch_needs_command -a \(command.name) -d \(fishQuote(command.summary))\n"
        }
        out += "complete -c podcast-watch -n __podcast_watch_needs_command -a help -d 'show the usage of a command'\n"
        out +=
            "complete -c podcast-watch -n '__podcast_watch_using help' -a '\(CommandTable.commands.map(\.name).joined(separator: " "))'\n"
        for command in CommandTable.commands {
            let condition = "-n '__podcast_watch_using \(command.name)'"
            for option in command.options {
                var line = "complete -c podcast-watch \(condition) -l \(option.name.dropFirst(2))"
                if option.value != nil {
                    switch option.kind {
                    case .file: line += " -r -F"
                    case .directory: line += " -x -a '(__fish_complete_directories)'"
                    case .feedID: line += " -x -a '(__podcast_watch_feed_ids)'"
                    case .feedURL: line += " -r -F -a '(__podcast_watch_feed_urls)'"
                    case .words(let words): line += " -x -a \(fishQuote(words.joined(separator: " ")))"
                    case .text: line += " -x"
                    }
                }
                out += line + "\n"
            }
            if command.operand == .file { out += "complete -c podcast-watch \(condition) -F\n" }
            if command.operand == .feedURL {
                out += "complete -c podcast-watch \(condition) -F -a '(__podcast_watch_feed_urls)'\n"
            }
        }
        return out
    }

    // MARK: bash

    static let globalValued = CommandTable.globalOptions.filter { $0.value != nil }.map(\.name)

    static func bashCase(_ names: [String], indent: Int) -> String {
        String(repeating: " ", count: indent) + names.joined(separator: " | ")
    }

    // `case "$command $prev"` patterns per value kind, global options first (any command).
    static func bashValueCases() -> [(String, CommandTable.ValueKind)] {
        var cases: [(String, CommandTable.ValueKind)] = CommandTable.globalOptions.filter { $0.value != nil }.map {
            ("*\" \($0.name)\"", $0.kind)
        }
        for command in CommandTable.commands {
            for option in command.options where option.value != nil {
                cases.append(("\"\(command.name) \(option.name)\"", option.kind))
            }
        }
        return cases
    }

    static func bashCompletion(_ kind: CommandTable.ValueKind, indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        switch kind {
        case .text: return ""
        case .file: return "\(pad)compopt -o filenames\n\(pad)COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        case .directory: return "\(pad)compopt -o filenames\n\(pad)COMPREPLY=($(compgen -d -- \"$cur\"))\n"
        case .feedID: return "\(pad)COMPREPLY=($(compgen -W \"$(_podcast_watch_feed_ids)\" -- \"$cur\"))\n"
        case .feedURL: return "\(pad)_podcast_watch_feed_urls\n"
        case .words(let words):
            return "\(pad)COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))\n"
        }
    }

    static func bashOperand(_ kind: CommandTable.ValueKind?) -> String {
        switch kind {
        case .file?: return "file"
        case .feedURL?: return "feed"
        default: return "\"\""
        }
    }

    // MARK: zsh and fish

    static func zshAction(_ kind: CommandTable.ValueKind) -> String {
        switch kind {
        case .text: return " "
        case .file: return "_files"
        case .directory: return "_files -/"
        case .feedID: return "_podcast_watch_feed_ids"
        case .feedURL: return "_podcast_watch_feed_urls"
        case .words(let words): return "(\(words.joined(separator: " ")))"
        }
    }

    static func zshQuote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    static func fishQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
