import Foundation
import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// `keys = "taskwarrior-tui"`: a switcher's hands do what they did there, or the closest
/// undoable thing, and a key HotTask has nothing for says so.
@Suite("Key presets")
struct KeyPresetTests {
    private func presetState(_ config: String = "keys = \"taskwarrior-tui\"", height: Int = 24) -> AppState {
        var state = makeState(makeList(priority: numberedTasks(3), bonus: ["Walk the dog"]), size: Size(width: 80, height: height))
        let parsed = AppConfig.parse(config, file: "c.toml")
        #expect(parsed.warnings.map(\.description) == [])
        state.bindings = parsed.bindings
        state.press(.tab)
        return state
    }

    /// Each task as the list shows it: "[x] Task 1" in its section.
    private func rows(_ state: AppState) -> [String] {
        [Section.priority, .bonus].flatMap { section in
            state.tasks.tasks(in: section).map { "\(section == .priority ? "P" : "B") [\($0.completed ? "x" : " ")] \($0.caption)" }
        }
    }

    @Test("d completes and x deletes, and u undoes each")
    func destructiveKeysAreUndoable() {
        var state = presetState()
        let before = ["P [ ] Task 1", "P [ ] Task 2", "P [ ] Task 3", "B [ ] Walk the dog"]
        #expect(rows(state) == before)
        state.press(.character("d"))
        #expect(rows(state) == ["P [x] Task 1", "P [ ] Task 2", "P [ ] Task 3", "B [ ] Walk the dog"])
        state.press(.character("u"))
        #expect(rows(state) == before)
        state.press(.character("j"), .character("x"))
        #expect(rows(state) == ["P [ ] Task 1", "P [ ] Task 3", "B [ ] Walk the dog"])
        state.press(.character("u"))
        #expect(rows(state) == before)
        // M moves (m modifies), and u brings it back too.
        state.press(.character("M"))
        #expect(rows(state) == ["P [ ] Task 1", "P [ ] Task 3", "B [ ] Task 2", "B [ ] Walk the dog"])
        state.press(.character("u"))
        #expect(rows(state) == before)
    }

    @Test("m edits the caption, a goes to the input, J and K page, s says HotTask has no start")
    func otherKeys() {
        var state = presetState()
        state.press(.character("m"))
        #expect(state.focus == .editing)
        state.press(.escape, .tab, .character("a"))
        #expect(state.focus == .input)
        state.press(.tab, .character("J"))
        #expect(state.selectedTask?.caption == "Walk the dog")
        state.press(.character("K"))
        #expect(state.selectedTask?.caption == "Task 1")
        state.press(.character("s"))
        #expect(state.message?.text == "s is start/stop: HotTask does not time tasks (S sorts)")
        #expect(state.view.sort == .manual)
        state.press(.character("S"))
        #expect(state.view.sort == .manual.next)
    }

    @Test func theHelpShowsThePresetsKeys() {
        var state = presetState(height: 28)
        state.press(.function(1))
        // The preset's keys, and s, which HotTask has nothing for, says so.
        expectScreen(
            state,
            [
                " HotTask  Get started - 4 to go!                                 0/4 ▱▱▱▱▱▱▱▱▱▱",
                "+ Type a new task and press Enter                                         [Add]",
                "─┌─ Keys: list ──────────────────────────────────────────────────────────────┐ ─",
                "T│ ↑ k / ↓ j               select                                            │",
                "›│ PgUp K / PgDn J         page up, page down                                │",
                " │ Home g / End G          first, last task                                  │",
                " │ [ / ]                   jump to Top Priority, Bonus                       │",
                " │ Space d                 done / not done                                   │",
                "B│ M                       move to the other section                         │",
                " │ ⇧↑ / ⇧↓                 reorder (Manual order)                            │",
                " │ e m F2 / n A            edit the caption / the note ($EDITOR)             │",
                " │ x Del                   delete                                            │",
                " │ w / r                   set or clear the due date / repeat rule           │",
                " │ C                       clear completed tasks                             │",
                " │ u / ^R                  undo, redo                                        │",
                " │ / ^F                    filter                                            │",
                " │ S                       sort: Manual, Newest, Oldest, A–Z, Due            │",
                " │ c                       completed tasks last (on/off)                     │",
                " │ v                       when each task was added and done (on/off)        │",
                " │ H / W                   history / calendar of due dates                   │",
                " │ a i Enter Esc ⇧Tab Tab  back to the input (Esc clears a filter first)     │",
                " │ ? F1                    this help                                         │",
                " │ q ^C ^Q                 quit                                              │",
                " │ ^Z ^L                   suspend, redraw                                   │",
                " │ s                       start/stop: HotTask does not time tasks (S sorts) │",
                " └─ any key closes ──────────────────────────────────────────────────────────┘",
                "",
                "Tab input  Space done  e edit  w due  M move  x delete  C clear  u undo  ? help",
            ])
    }

    @Test("[keys] changes single actions on top of the preset; a bad preset name sets the keys aside")
    func presetAndTable() {
        var state = presetState("keys = \"taskwarrior-tui\"\n[keys]\nsort = \"s\"")
        state.press(.character("s"))
        #expect(state.view.sort == .manual.next)
        #expect(
            AppConfig.parse("keys = \"vim\"", file: "/c.toml").warnings.map(\.description) == [
                "config /c.toml line 1: keys must be \"hottask\" or \"taskwarrior-tui\", not \"vim\"; [keys] not used: the standard keys"
            ])
        #expect(
            AppConfig.parse("keys = \"taskwarrior-tui\"\n[keys]\nsort = \"d\"", file: "/c.toml").warnings.map(\.description) == [
                "config /c.toml line 3: key 'd' is bound to both sort and toggle; [keys] not used: the standard keys"
            ])
        #expect(AppConfig.parse("keys = \"hottask\"", file: "/c.toml").bindings == .standard)
    }

    @Test("every preset binds every action and no key twice", arguments: KeyPreset.allCases)
    func presetsAreWhole(preset: KeyPreset) throws {
        let bindings = try KeyBindings.preset(preset, replacing: [:])
        for action in ListAction.allCases {
            #expect(!bindings.label(of: action).isEmpty, "\(action.name) has no key in \(preset.rawValue)")
        }
    }
}
