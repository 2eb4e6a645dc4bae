import Foundation
import TestSupport
import Testing

/// The shell completions offer the store's tags after `--tag`, `--untag` and `--filter`, from
/// `hottask --list --tags` on the store the command line names. Each shell runs the installed
/// script as it would: bash through its completion function, fish through `complete -C`, zsh
/// through the script's own tag lister.
@Suite("completions: the store's tags")
struct TagCompletionTests {
    let folder = TemporaryFolder()
    private var store: String { folder.storePath }
    private let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Assets/completions")
    /// hottask first on PATH, as an installed one would be.
    private var path: String { HotTaskBinary.url.deletingLastPathComponent().path + ":/usr/bin:/bin" }

    private func seed() {
        expectRun(
            ["--file", store, "--quiet", "--add", "Fix the build +work", "--add", "Plan the week +work +home", "--add", "Call Sam"])
        expectRun(["--file", store, "--quiet", "--edit", "3", "--tag", "@phone"])
        expectRun(["--file", store, "--quiet", "--add", "Buy bread", "--tag", "Grocery list"])
    }

    @Test func listTagsPrintsEachTagOnceTheMostUsedFirst() {
        seed()
        expectRun(["--file", store, "--list", "--tags"], stdout: "work\n@phone\nGrocery list\nhome\n")
        expectRun(["--file", store, "--list", "--tags", "--filter", "+home"], stdout: "home\nwork\n")
        expectRun(
            ["--file", store, "--tags"], stderr: "hottask: --tags goes with --list.\n", status: 64)
        expectRun(
            ["--file", store, "--list", "--tags", "--json"],
            stderr: "hottask: --tags prints tag names, one a line; leave out --json.\n", status: 64)
    }

    @Test func bashOffersTagsAfterTagAndFilter() throws {
        try requireTool("bash", from: "bash")
        seed()
        let run = runProcess([
            "bash", "-c",
            """
            PATH='\(path)'; source '\(assets.path)/hottask.bash'
            for words in '--tag ' '--untag h' '--filter +w' '--filter -' '--filter du' '--filter '; do
                read -ra COMP_WORDS <<< "hottask --file '\(store)' $words"
                [[ $words == *' ' ]] && COMP_WORDS+=('')
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                _hottask; printf '%s|' "${COMPREPLY[@]}"; echo
            done
            """,
        ])
        #expect(
            run.stdout == """
                work|@phone|Grocery\\ list|home|
                home|
                +work|
                -work|-@phone|-home|
                due:today|due:overdue|due:week|due:none|
                +work|+@phone|+home|due:today|due:overdue|due:week|due:none|

                """, "\(run.stderr)")
    }

    @Test func fishOffersTagsAfterTagAndFilter() throws {
        try requireTool("fish", from: "fish")
        seed()
        let run = runProcess([
            "fish", "--no-config", "-c",
            """
            set PATH \(path.split(separator: ":").joined(separator: " "))
            source '\(assets.path)/hottask.fish'
            complete -C "hottask --file '\(store)' --tag "
            echo -- --
            complete -C "hottask --file '\(store)' --filter +"
            """,
        ])
        #expect(
            run.stdout == """
                @phone\tWith --add or --edit: give the task this tag
                Grocery list\tWith --add or --edit: give the task this tag
                home\tWith --add or --edit: give the task this tag
                work\tWith --add or --edit: give the task this tag
                --
                +@phone\tWith --list or --stats: only tasks that match (+tag -tag due:today words)
                +home\tWith --list or --stats: only tasks that match (+tag -tag due:today words)
                +work\tWith --list or --stats: only tasks that match (+tag -tag due:today words)

                """, "\(run.stderr)")
    }

    @Test func zshListsTheTagsOfTheStoreNamed() throws {
        try requireTool("zsh", from: "zsh")
        seed()
        // The script is an autoloaded function body that ends in _arguments: its tag lister is
        // taken out and run with the words a completion would have.
        let run = runProcess([
            "zsh", "-f", "-c",
            """
            PATH='\(path)'
            eval "$(sed -n '/^_hottask_tag_list()/,/^}/p' '\(assets.path)/_hottask')"
            words=(hottask --file '\(store)' --tag ''); CURRENT=4
            _hottask_tag_list; print -l -- $reply
            """,
        ])
        #expect(run.stdout == "work\n@phone\nGrocery list\nhome\n", "\(run.stderr)")
        #expect(runProcess(["zsh", "-n", assets.path + "/_hottask"]).status == 0)
    }
}
