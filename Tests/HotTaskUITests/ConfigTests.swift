import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

@Suite("Config file and key bindings")
struct ConfigTests {
    @Test func ctrlNamesTheTerminalSendsAsOtherKeysBindThoseKeys() {
        #expect(KeyName.key(named: "ctrl-j") == .enter)
        #expect(KeyName.key(named: "ctrl-m") == .enter)
        #expect(KeyName.key(named: "ctrl-i") == .tab)
        #expect(KeyName.key(named: "ctrl-h") == .backspace)
        #expect(KeyName.key(named: "ctrl-r") == .control("r"))
    }

    /// Every problem the file has, as the command line says it.
    private func problems(_ text: String) -> [String] {
        AppConfig.parse(text, file: "/home/a/config.toml").warnings.map(\.description)
    }

    /// The first of them.
    private func problem(_ text: String) -> String? {
        problems(text).first
    }

    @Test("an unknown setting or table is skipped with a warning naming its line; the rest of the file, [keys] and [sync] too, is used")
    func unknownSettingsAreSkipped() throws {
        let config = AppConfig.parse(
            """
            colour = "red"
            theme = "light"
            [keys]
            move = "M"
            [sync]
            url = "https://dav.example/u/tasks/"
            password = "p"
            [colours]
            bg = "x"
            fg = "y"
            """, file: "/home/a/config.toml")
        #expect(config.theme == .light && config.sync?.url == "https://dav.example/u/tasks/")
        #expect(config.bindings.action(for: .character("M")) == .move)
        #expect(
            config.warnings.map(\.description) == [
                "config /home/a/config.toml line 1: unknown setting \"colour\" (known: theme, default_section, details, mouse, date_format, keys, [keys], [colors], [sync]); skipped",
                "config /home/a/config.toml line 7: unknown setting \"password\" in [sync] (known: url, username, password_command, ca_file, connections, calendars); skipped",
                "config /home/a/config.toml line 9: unknown table [colours] (known: [keys], [colors], [sync]); skipped",
            ])
    }

    /// Issue 42: one bad theme made HotTask ignore the whole file, default_section with it.
    @Test func aBadValueDropsThatSettingOnlyAndEveryProblemIsSaid() {
        let config = AppConfig.parse(
            """
            theme = "drak"
            default_section = "bonus"
            date_format = "ymd"
            details = true
            mouse = maybe
            [keys]
            move = "M"
            [colors]
            done = "#808080"
            due = "purple"
            [sync]
            url = "https://dav.example/u/tasks/"
            connections = 99
            """, file: "/home/a/config.toml")
        #expect(config.theme == .auto && config.defaultSection == .bonus && config.dateFormat == .iso && config.details && config.mouse)
        #expect(config.bindings.action(for: .character("M")) == .move)
        #expect(config.colors == [.done: .indexed(244)])
        #expect(config.sync == SyncSettings(url: "https://dav.example/u/tasks/"))
        #expect(
            config.warnings.map(\.description) == [
                "config /home/a/config.toml line 1: theme must be \"auto\", \"dark\", \"light\" or \"mono\", not \"drak\"; skipped",
                "config /home/a/config.toml line 3: date_format must be \"iso\", \"dmy\" or \"mdy\", not \"ymd\"; skipped",
                "config /home/a/config.toml line 5: maybe is not a value; strings need quotes; line skipped",
                "config /home/a/config.toml line 10: due in [colors] takes \(TerminalColor.forms), not \"purple\"; skipped",
                "config /home/a/config.toml line 13: connections in [sync] takes a number from 1 to 32, not a number; skipped",
            ])
    }

    @Test func aFullConfigIsRead() throws {
        let config = AppConfig.parse(
            """
            # mine
            theme = "light"
            default_section = 'bonus'

            [keys]
            toggle = ["space", "t"]   # t for "tick"
            move = "M"
            delete = [
              "D",
              "delete",
            ]
            quit = "ctrl-x"
            filter = ["/", "f3"]
            help = []
            """, file: "c.toml")
        #expect(config.theme == .light)
        #expect(config.defaultSection == .bonus)
        #expect(config.bindings.action(for: .character("t")) == .toggle)
        #expect(config.bindings.action(for: .character("x")) == nil)
        #expect(config.bindings.action(for: .character("M")) == .move)
        #expect(config.bindings.action(for: .character("D")) == .delete)
        #expect(config.bindings.action(for: .control("x")) == .quit)
        #expect(config.bindings.action(for: .function(3)) == .filter)
        #expect(config.bindings.action(for: .character("?")) == nil, "help keeps only its fixed F1")
        // Untouched actions keep their standard keys.
        #expect(config.bindings.action(for: .character("s")) == .sort)
    }

    @Test func anEmptyFileIsTheStandardConfig() throws {
        #expect(AppConfig.parse("", file: "c.toml") == .standard)
        #expect(AppConfig.parse("# nothing\n\n", file: "c.toml") == .standard)
    }

    @Test func eachKindOfProblemNamesTheFileAndLine() {
        #expect(
            problem("theme = \"light\"\ntheme = dark\n")
                == "config /home/a/config.toml line 2: dark is not a value; strings need quotes; line skipped")
        #expect(
            problems("[keys\nmove = \"M\"\n") == ["config /home/a/config.toml line 1: expected ] after the table name; line skipped"],
            "the lines of a table whose header does not read are passed over")
        #expect(
            problem("\n\ncolour = \"red\"")
                == "config /home/a/config.toml line 3: unknown setting \"colour\" (known: theme, default_section, details, mouse, date_format, keys, [keys], [colors], [sync]); skipped"
        )
        #expect(
            problem("[keys]\ntoggel = \"t\"")?.hasPrefix("config /home/a/config.toml line 2: unknown action \"toggel\" in [keys] (actions: up, down,")
                == true)
        #expect(
            problem("[keys]\ntoggle = [\"space\", \"spcae\"]")?.hasPrefix("config /home/a/config.toml line 2: unknown key name \"spcae\" for toggle")
                == true)
        #expect(
            problem("theme = \"drak\"")
                == "config /home/a/config.toml line 1: theme must be \"auto\", \"dark\", \"light\" or \"mono\", not \"drak\"; skipped")
        #expect(
            problem("default_section = 3")
                == "config /home/a/config.toml line 1: default_section must be \"priority\" or \"bonus\", not a number; skipped")
        #expect(
            problem("[keys]\nquit = \"ctrl-c\"")
                == "config /home/a/config.toml line 2: key 'ctrl-c' is reserved for quit and cannot be bound to quit; [keys] not used: the standard keys"
        )
        #expect(problem("toggle = \"t\"") == "config /home/a/config.toml line 1: \"toggle\" is a key binding; put it under [keys]; skipped")
        #expect(
            problem("[colors]\nbg = \"x\"")?.hasPrefix(
                "config /home/a/config.toml line 2: unknown colour role \"bg\" in [colors] (roles: text, done,") == true)
        #expect(
            problem("[sync]\nusername = \"me\"")
                == "config /home/a/config.toml line 2: [sync] needs a url (the calendar collection); [sync] not used")
        #expect(problem("[sync]\nurl = \"https://x/\"\npassword = \"p\"")?.hasSuffix("; skipped") == true)
        #expect(problem("[sync]\nurl = 5") == "config /home/a/config.toml line 2: url in [sync] takes a string, not a number; skipped")
        #expect(problem("[keys]\nmove = \"m\"\nmove = \"n\"") == "config /home/a/config.toml line 3: \"move\" is set twice; line skipped")
        #expect(problem("theme = \"light") == "config /home/a/config.toml line 1: the string is not closed with \"; line skipped")
        #expect(problem("theme = \"default\"") == nil, "the dark theme's earlier name")
    }

    @Test func syncSettingsAreRead() throws {
        let config = AppConfig.parse(
            "[sync]\nurl = \"https://cloud.example/dav/tasks/\"\nusername = \"me\"\npassword_command = \"pass show x\"\n", file: "c.toml")
        #expect(config.sync == SyncSettings(url: "https://cloud.example/dav/tasks/", username: "me", passwordCommand: "pass show x"))
        #expect(AppConfig.parse("theme = \"light\"", file: "c.toml").sync == nil)
    }

    @Test func aKeyOnTwoActionsIsReportedByNameAndKeysAreAllOrNothing() {
        #expect(
            problem("[keys]\n\ntoggle = [\"space\", \"x\"]\ndelete = [\"x\"]")
                == "config /home/a/config.toml line 4: key 'x' is bound to both toggle and delete; [keys] not used: the standard keys")
        // A standard key taken by another action must be given up explicitly.
        #expect(
            problem("[keys]\ntoggle = \"d\"")
                == "config /home/a/config.toml line 2: key 'd' is bound to both toggle and delete; [keys] not used: the standard keys")
        #expect(problem("[keys]\ntoggle = \"d\"\ndelete = \"Delete\"") == nil)
        // One wrong binding sets all of [keys] aside: no half-remapped keyboard.
        let config = AppConfig.parse("theme = \"light\"\n[keys]\nmove = \"M\"\ntoggle = \"spcae\"", file: "c.toml")
        #expect(config.bindings == .standard && config.theme == .light)
    }

    @Test func theFooterFormNamesTheFileBriefly() {
        let problem = AppConfig.Problem(file: "/home/a/.config/hottask/config.toml", line: 2, reason: "bad")
        #expect(problem.shortDescription == "config.toml line 2: bad; using the defaults")
    }

    @Test func keysAreCharactersTypedSoAnyLayoutWorks() throws {
        let config = AppConfig.parse("[keys]\ntoggle = \"й\"\nmove = \"é\"\ndelete = \"Ö\"", file: "c.toml")
        #expect(config.bindings.action(for: .character("й")) == .toggle)
        #expect(config.bindings.action(for: .character("é")) == .move)
        #expect(config.bindings.action(for: .character("Ö")) == .delete)
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.bindings = config.bindings
        state.press(.tab)
        state.type("й")
        #expect(state.tasks[0].completed)
        state.type("é")
        #expect(state.tasks[0].section == .bonus)
    }

    @Test func theListUsesTheBindingsAndKeepsCtrlCFixed() throws {
        let config = AppConfig.parse("[keys]\ntoggle = \"t\"\nquit = []", file: "c.toml")
        var state = makeState(makeList(priority: ["Buy milk", "Call mom"]))
        state.bindings = config.bindings
        state.press(.tab)
        state.type("x")
        #expect(!state.tasks[0].completed)
        #expect(state.message?.kind == .warning)
        let effects = state.press(.character("t"))
        #expect(state.tasks[0].completed)
        #expect(effects.contains { if case .save = $0 { true } else { false } })
        #expect(state.press(.character("q")).isEmpty)
        #expect(state.press(.control("c")) == [.quit])
        #expect(state.press(.control("q")) == [.quit])
    }

    @Test func tabAlwaysReturnsToTheInputWhateverTheConfig() throws {
        let config = AppConfig.parse("[keys]\ninput = []", file: "c.toml")
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.bindings = config.bindings
        state.press(.tab)
        #expect(state.focus == .list)
        state.press(.character("i"), .enter, .escape)
        #expect(state.focus == .list, "input = [] took the other keys away")
        state.press(.tab)
        #expect(state.focus == .input)
        #expect(AppConfig.parse("[keys]\ntoggle = \"tab\"", file: "c.toml").warnings.count == 1)
    }

    @Test func aConfigLeavingAnActionWithNoKeyIsRefusedNamingIt() {
        #expect(
            problem("[keys]\ntoggle = \"t\"\nundo = []")
                == "config /home/a/config.toml line 3: undo would have no key at all; give it one (or leave it out to keep its standard keys); [keys] not used: the standard keys"
        )
        #expect(problem("[keys]\nedit = []") != nil)
        #expect(problem("[keys]\nquit = []\nhelp = []\ninput = []") == nil, "each keeps its fixed key: ^C, F1, Tab")
    }

    @Test func theInputRowKeepsItsEditingKeys() throws {
        let config = AppConfig.parse("[keys]\ntoggle = \"a\"\ninput = \"b\"", file: "c.toml")
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.bindings = config.bindings
        state.type("ab")
        #expect(state.input.text == "ab")
        #expect(!state.tasks[0].completed)
    }

    @Test func theHelpOverlayShowsTheActualBindings() throws {
        let config = AppConfig.parse("[keys]\ntoggle = [\"t\", \"space\"]\nquit = \"Q\"\nhelp = []", file: "c.toml")
        var state = makeState(makeList(priority: ["Buy milk"]))
        state.bindings = config.bindings
        state.press(.tab, .function(1))
        // t Space done, Q ^C quit, F1 alone for the help.
        expectScreenSnapshot(state, named: "ConfigTests.theHelpOverlayShowsTheActualBindings")
        state.press(.escape)
        expectScreenSnapshot(state, named: "ConfigTests.theHelpOverlayShowsTheActualBindings-2")
    }

    @Test func theStandardHelpIsUnchangedInSubstance() {
        let entries = KeyHelp.entries(for: .list)
        #expect(entries.first == KeyHelp.Entry("↑ k / ↓ j", "select"))
        #expect(entries.contains(KeyHelp.Entry("Space x", "done / not done")))
        #expect(KeyHelp.hints(for: .list).first.map { "\($0.keys) \($0.action)" } == "Tab input")
    }

    @Test func newTasksGoToTheDefaultSection() {
        var state = AppState(
            tasks: makeList(priority: ["Buy milk"]), size: Size(width: 80, height: 24),
            config: AppConfig(defaultSection: .bonus))
        state.type("Walk the dog")
        state.press(.enter)
        #expect(state.tasks.tasks(in: .bonus).map(\.caption) == ["Walk the dog"])
        #expect(state.selectedTask?.caption == "Walk the dog")
    }

    @Test func keyNamesReadAndShowBothWays() {
        for name in [
            "space", "enter", "tab", "shift-tab", "escape", "backspace", "delete", "up", "down", "left",
            "right", "home", "end", "pageup", "pagedown", "shift-up", "shift-down", "ctrl-r", "f2", "x", "?",
        ] {
            let key = KeyName.key(named: name)
            #expect(key != nil, "\(name)")
            if let key { #expect(KeyName.key(named: KeyName.configName(of: key)) == key) }
        }
        #expect(KeyName.key(named: "Space") == .character(" "))
        #expect(KeyName.key(named: "ctrl-1") == nil)
        #expect(KeyName.key(named: "\u{1B}") == nil)
        #expect(KeyName.key(named: "") == nil)
    }

    // MARK: Location

    @Test(
        "the store location follows --file, then HOTTASK_FILE, then XDG_DATA_HOME, then HOME",
        arguments: [
            ("/x/cli.json", ["HOTTASK_FILE": "/x/env.json", "XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/x/cli.json"),
            (nil, ["HOTTASK_FILE": "/x/env.json", "XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/x/env.json"),
            ("", ["HOTTASK_FILE": "/x/env.json"], "/x/env.json"),
            (nil, ["HOTTASK_FILE": "", "XDG_DATA_HOME": "/data", "HOME": "/home/u"], "/data/hottask/tasks.json"),
            (nil, ["XDG_DATA_HOME": "relative/data", "HOME": "/home/u"], "/home/u/.local/share/hottask/tasks.json"),
            (nil, ["HOME": "/home/u"], "/home/u/.local/share/hottask/tasks.json"),
        ] as [(String?, [String: String], String)])
    func location(file: String?, environment: [String: String], expected: String) {
        #expect(StoreLocation.resolve(file: file, environment: environment) == expected)
    }
}
