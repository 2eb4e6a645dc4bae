import Foundation
import HotTaskSettings
import Testing

@testable import HotTaskCore
@testable import HotTaskUI

/// Notes and tags on the screen: the note's mark and its line in the details, tags dim after
/// the caption (giving way before the caption is cut, never over the due date) at 80, 40 and 24
/// columns; `n` and the editor's outcome; `+word` in the input and the caption editor; Tab's
/// completion; the filter's `+tag`, `-tag` and `due:` words.
@Suite("Notes and tags in the app")
struct NotesAndTagsScreenTests {
    static let berlin = ZoneInfo(identifier: "Europe/Berlin")!

    /// `testNow` is Wednesday 2026-11-18, 12:06 in Berlin.
    func tagged(_ size: Size = Size(width: 80, height: 24)) -> AppState {
        func day(_ d: Int) -> DueDate { .date(year: 2026, month: 11, day: d)! }
        let tasks = [
            TaskItem(caption: "Pay rent", createdAt: testNow, due: day(20), note: "Landlord: 555-0100\nCash only", tags: ["home", "money"]),
            TaskItem(caption: "Return the library books before the fine doubles again", createdAt: testNow, due: day(10), tags: ["errands"]),
            TaskItem(caption: "Call mum", createdAt: testNow, tags: ["family", "@phone"]),
            TaskItem(caption: "Write report", createdAt: testNow, note: "Outline first", tags: ["work"]),
            TaskItem(caption: "Someday", section: .bonus, createdAt: testNow, tags: ["workshop"]),
        ]
        var state = makeState(TaskList(tasks), size: size)
        state.zone = Self.berlin
        return state
    }

    func listRows(_ state: AppState, _ count: Int = 9) -> [String] {
        Array(AppRender.render(state, size: state.size).lines[3..<(3 + count)])
    }

    @Test func tagsAreDimAfterTheCaptionAndGiveWayBeforeItAndTheDate() {
        #expect(
            listRows(tagged()) == [
                "Top Priority (4)",
                "› [ ] Pay rent ✎ +home +money                                               Fri",
                "  [ ] Return the library books before the fine doubles again +er…  ! 2026-11-10",
                "  [ ] Call mum +family @phone",
                "  [ ] Write report ✎ +work",
                "",
                "Bonus (1)",
                "  [ ] Someday +workshop",
                "",
            ])
        #expect(
            listRows(tagged(Size(width: 40, height: 24)), 5) == [
                "Top Priority (4)",
                "› [ ] Pay rent ✎ +home +money       Fri",
                "  [ ] Return the library…  ! 2026-11-10",
                "  [ ] Call mum +family @phone",
                "  [ ] Write report ✎ +work",
            ])
        let narrow = listRows(tagged(Size(width: 24, height: 24)), 5)
        #expect(
            narrow == [
                "Top Priority (4)",
                "› [ ] Pay rent ✎    Fri",
                "  [ ] Re…  ! 2026-11-10",
                "  [ ] Call mum +family…",
                "  [ ] Write report ✎ +…",
            ])
        // The tags are dim (on the selected row, the selection's dim form); the mark is the row's.
        let grid = AppRender.render(tagged(), size: Size(width: 80, height: 24))
        #expect(grid[17, 4].style == .hint)  // "+" of "+home" on the selected row, the list not focused
        #expect(grid[15, 4].style == .selectedInactive)  // ✎
        #expect(grid[16, 6].style == .hint)  // "+family"
    }

    @Test func detailsShowTheNoteOnOneLine() {
        var state = tagged()
        state.press(.tab, .character("v"))
        #expect(
            listRows(state, 3) == [
                "Top Priority (4)",
                "› [ ] Pay rent ✎ +home +money                                               Fri",
                "      added just now · ✎ Landlord: 555-0100 ↵ Cash only",
            ])
    }

    @Test func nOpensTheNoteInTheEditorAndItsOutcomeIsOneUndoableChange() throws {
        var state = tagged()
        state.press(.tab)
        let payRent = state.tasks[0]
        state.expectPress(.character("n")) { _ in
            [.editNote(NoteEditing.Request(taskID: payRent.id, caption: "Pay rent", text: payRent.note, base: payRent.note))]
        }
        // The editor saved a new note: one change, undone by u.
        let saved = AppUpdate.update(&state, .noteEdited(.edited(taskID: payRent.id, text: "Landlord: 555-0199\n\n")), now: testNow)
        #expect(savedChanges(saved) == [.set(payRent.id, TaskFields(note: "Landlord: 555-0199"), was: TaskFields(note: payRent.note))])
        #expect(state.tasks[0].note == "Landlord: 555-0199")
        #expect(state.message?.text == "Note changed: “Pay rent”")
        let undone = state.press(.character("u"))
        #expect(savedChanges(undone) == [.set(payRent.id, TaskFields(note: payRent.note), was: TaskFields(note: "Landlord: 555-0199"))])
        #expect(state.tasks[0].note == payRent.note)
    }

    @Test func anEditorThatFailsChangesNothingAndItsTextComesBackWithTheNextN() {
        var state = tagged()
        state.press(.tab)
        let payRent = state.tasks[0]
        let failed = AppUpdate.update(
            &state, .noteEdited(.failed(taskID: payRent.id, reason: "vim exited 1; kept in /tmp/x.txt", text: "half written")), now: testNow)
        #expect(failed.isEmpty)
        #expect(state.tasks[0].note == payRent.note)
        #expect(
            state.message?.text == "The editor failed (vim exited 1; kept in /tmp/x.txt); the note is unchanged, your text is kept: n opens it again")
        #expect(
            state.press(.character("n")) == [
                .editNote(NoteEditing.Request(taskID: payRent.id, caption: "Pay rent", text: "half written", base: payRent.note, offersKept: true))
            ])
        // Refused after a good edit (here: deleted elsewhere meanwhile): said as what happened.
        _ = AppUpdate.update(
            &state,
            .noteEdited(.refused(taskID: payRent.id, reason: "its task was deleted elsewhere meanwhile", text: "typed", file: "/tmp/n.txt")),
            now: testNow)
        #expect(
            state.message?.text
                == "Note not saved: its task was deleted elsewhere meanwhile; your text is kept in /tmp/n.txt, and n opens it again")
        #expect(state.keptNote == NoteEditing.Kept(taskID: payRent.id, text: "typed"))
        // A note over the limit is not saved, and kept too.
        let long = String(repeating: "x", count: StoreLimits.noteBytes + 1)
        #expect(AppUpdate.update(&state, .noteEdited(.edited(taskID: payRent.id, text: long)), now: testNow).isEmpty)
        #expect(state.message?.kind == .error)
        #expect(state.keptNote == NoteEditing.Kept(taskID: payRent.id, text: long))
    }

    /// Issue 48: `:q!` saved what was thrown away. An editor that writes nothing changes
    /// nothing, and the kept text it was offered is dropped: the next `n` opens the note itself.
    @Test func anEditorThatWritesNothingChangesNothingAndDropsTheKeptText() {
        var state = tagged()
        state.press(.tab)
        let payRent = state.tasks[0]
        _ = AppUpdate.update(&state, .noteEdited(.failed(taskID: payRent.id, reason: "vim exited 1", text: "half written")), now: testNow)
        #expect(state.keptNote != nil)
        let notWritten = AppUpdate.update(&state, .noteEdited(.notWritten(taskID: payRent.id)), now: testNow)
        #expect(notWritten.isEmpty, "nothing saved")
        #expect(state.tasks[0].note == payRent.note)
        #expect(state.keptNote == nil)
        #expect(state.message?.text == "Note unchanged: the editor wrote nothing, so the kept text is dropped")
        #expect(
            state.press(.character("n")) == [
                .editNote(NoteEditing.Request(taskID: payRent.id, caption: "Pay rent", text: payRent.note, base: payRent.note))
            ])
        _ = AppUpdate.update(&state, .noteEdited(.notWritten(taskID: payRent.id)), now: testNow)
        #expect(state.message?.text == "Note unchanged: the editor wrote nothing")
    }

    @Test func aNoteChangedOrATaskDeletedElsewhereWhileTheEditorWasOpenLosesNeitherText() {
        var state = tagged()
        state.press(.tab)
        let payRent = state.tasks[0]
        // Another program changed the note while the editor had it: that note stays, ours is kept.
        _ = AppUpdate.update(
            &state,
            .changedOutside([outsideRecord([.set(payRent.id, TaskFields(note: "Cash only"), was: TaskFields(note: payRent.note))])]),
            now: testNow)
        let written = AppUpdate.update(
            &state, .noteEdited(.edited(taskID: payRent.id, text: "Landlord: 555-0199", base: payRent.note)), now: testNow)
        #expect(savedChanges(written).isEmpty)
        #expect(state.tasks[0].note == "Cash only")
        #expect(state.keptNote == NoteEditing.Kept(taskID: payRent.id, text: "Landlord: 555-0199"))
        #expect(
            state.press(.character("n")) == [
                .editNote(
                    NoteEditing.Request(taskID: payRent.id, caption: "Pay rent", text: "Landlord: 555-0199", base: "Cash only", offersKept: true))
            ])
        // Its task deleted elsewhere: the text is offered on the next n, on any task.
        _ = AppUpdate.update(&state, .changedOutside([outsideRecord([.delete(state.tasks[0])])]), now: testNow)
        _ = AppUpdate.update(&state, .noteEdited(.edited(taskID: payRent.id, text: "Landlord: 555-0199", base: "Cash only")), now: testNow)
        #expect(state.message?.text == "That task was deleted elsewhere; your note is kept: n on any task opens it again")
        let other = state.selectedTask!
        #expect(
            state.press(.character("n")) == [
                .editNote(
                    NoteEditing.Request(taskID: other.id, caption: other.caption, text: "Landlord: 555-0199", base: other.note, offersKept: true))
            ])
    }

    /// What this UI had not seen yet is checked in the store as the note is saved: a refused
    /// save is taken back on screen, leaves no undo step, and keeps the text and its file.
    @Test func aNoteSaveTheStoreRefusesIsTakenBackAndItsTextKept() throws {
        var state = tagged()
        state.press(.tab)
        let payRent = state.tasks[0]
        let written = AppUpdate.update(
            &state, .noteEdited(.edited(taskID: payRent.id, text: "Landlord: 555-0199", base: payRent.note, file: "/tmp/n.txt")),
            now: testNow)
        guard case .save(let save)? = written.first else {
            Issue.record("expected a save, got \(written)")
            return
        }
        #expect(save.condition == .note(of: payRent.id, was: payRent.note, becomes: "Landlord: 555-0199"))
        #expect(save.keptFile == "/tmp/n.txt")
        #expect(state.tasks[0].note == "Landlord: 555-0199", "shown at once")
        _ = AppUpdate.update(&state, .saveRefused(save, reason: "the note was changed elsewhere meanwhile"), now: testNow)
        #expect(state.tasks[0].note == payRent.note, "taken back: the store never had it")
        #expect(state.keptNote == NoteEditing.Kept(taskID: payRent.id, text: "Landlord: 555-0199"))
        #expect(
            state.message?.text
                == "Note not saved: the note was changed elsewhere meanwhile; your text is kept in /tmp/n.txt, and n opens it again")
        state.press(.character("u"))
        #expect(state.tasks[0].note == payRent.note)
        #expect(state.message?.text == "Nothing to undo")
    }

    @Test func theWheelLeavesAnOpenDueOrRepeatPromptOnItsTask() {
        for key in ["w", "r"] {
            var state = tagged(Size(width: 80, height: 8))
            state.press(.tab, .character(Character(key)))
            let selected = state.selection
            _ = AppUpdate.update(&state, .wheelScrolled(lines: 3), now: testNow)
            #expect(state.selection == selected, "\(key): the prompt's row stays selected")
        }
    }

    @Test func plusWordsInTheInputAreTagsUnlessTheConfigSaysNot() throws {
        var state = tagged()
        state.type("Fix C++ build +work +1 \\+urgent +v2")
        let effects = state.press(.enter)
        let added = try #require(savedChanges(effects).first?.task)
        #expect(added.caption == "Fix C++ build +1 +urgent")
        #expect(added.tags == ["work", "v2"])
        var plain = AppState(
            tasks: TaskList(), size: Size(width: 80, height: 24),
            config: {
                var config = AppConfig.standard
                config.plusTags = false
                return config
            }())
        plain.type("Fix +work")
        #expect(savedChanges(plain.press(.enter)).first?.task.tags == [])
    }

    @Test func theCaptionEditorShowsTheTagsAsWordsAndSavesWhatIsLeft() throws {
        var state = tagged()
        state.press(.tab, .down, .down)  // Call mum
        let callMum = try #require(state.selectedTask)
        state.press(.character("e"))
        // A context is a word too (`@phone`), as typed in the input row: editing it edits it.
        #expect(state.editor.text == "Call mum +family @phone")
        state.press(.control("w"))
        state.type("+home")
        let effects = state.press(.enter)
        #expect(savedChanges(effects) == [.set(callMum.id, TaskFields(tags: ["family", "home"]), was: TaskFields(tags: callMum.tags))])
    }

    @Test func tabCompletesATagInTheInputAndTheFilter() {
        var state = tagged()
        state.type("Plan +wo")
        state.press(.tab)
        #expect(state.input.text == "Plan +work")
        #expect(state.message?.text == "Tab: +work +workshop")
        #expect(state.focus == .input, "Tab completed; it did not move to the list")
        state.type("s")
        state.press(.tab)
        #expect(state.input.text == "Plan +workshop ")
        // Tab again right after a completion (a shell habit) completes again; it never moves
        // the keys to the list, and the space typed next is the completion's own.
        state.press(.tab)
        #expect(state.input.text == "Plan +workshop ")
        #expect(state.focus == .input)
        #expect(state.message?.text == "Only +workshop starts so; Tab again keeps it")
        state.type(" now")
        #expect(state.input.text == "Plan +workshop now")
        // Not after a +word: Tab goes to the list as ever.
        state.press(.tab)
        #expect(state.focus == .list)
        // The filter: -tag and @context too.
        state.press(.character("/"))
        state.type("-err")
        state.press(.tab)
        #expect(state.filter.text == "-errands ")
        state.type("@ph")
        state.press(.tab)
        #expect(state.filter.text == "-errands @phone ")
        #expect(state.view.count(of: state.tasks) == 1)
        state.type("+nothing")
        state.press(.tab)
        #expect(state.message?.text == "No tag starts with “nothing”")
    }

    @Test func theFilterTakesTagsAndDueWordsAndTheRestIsFreeText() {
        var state = tagged()
        func shown(_ query: String) -> [String] {
            state.press(.character("/"))
            state.press(.control("u"))
            state.type(query)
            return (0..<state.view.count(of: state.tasks)).map { state.tasks[state.view.position(ofDisplay: $0, in: state.tasks)].caption }
        }
        state.press(.tab)
        #expect(shown("+work") == ["Write report"])
        #expect(shown("+WORK") == ["Write report"], "case is ignored")
        #expect(shown("-work") == ["Pay rent", "Return the library books before the fine doubles again", "Call mum", "Someday"])
        #expect(shown("due:overdue") == ["Return the library books before the fine doubles again"])
        #expect(shown("due:week") == ["Pay rent", "Return the library books before the fine doubles again"])
        #expect(shown("due:none -@phone") == ["Write report", "Someday"])
        #expect(shown("due:today") == [])
        #expect(shown("+home rent") == ["Pay rent"])
        #expect(shown("+home call") == [])
        #expect(shown("\\+work") == [], "escaped: free text, which no caption holds")
        // Typed key by key, "+wo" asks for another tag than "+work": never narrowed from it.
        #expect(shown("+w") == [])
        state.type("ork")
        #expect(state.view.count(of: state.tasks) == 1)
    }
}
