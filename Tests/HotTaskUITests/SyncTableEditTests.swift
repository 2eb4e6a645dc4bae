import Testing

@testable import HotTaskCore
@testable import HotTaskSettings
@testable import HotTaskUI

/// `--sync-setup` writes `[sync]` into a config someone keeps by hand: every other line stays
/// exactly as it was, and the result reads back as the settings written.
@Suite("Writing [sync] into a config file")
struct SyncTableEditTests {
    let settings = SyncSettings(url: "https://dav.example.com/cal/tasks/", username: "me", passwordCommand: "pass show \"dav\"")

    @Test("a file without [sync] gets one at the end; everything before it is unchanged, CRLF line ends kept")
    func appends() throws {
        let original = "# mine\r\ntheme = \"light\"\r\n\r\n[keys]\r\ntoggle = [\"x\", \"space\"]  # both\r\n"
        let edited = SyncTableEdit.applying(settings, to: original)
        #expect(edited.hasPrefix(original))
        #expect(
            edited.dropFirst(original.count)
                == "\r\n[sync]\r\nurl = \"https://dav.example.com/cal/tasks/\"\r\nusername = \"me\"\r\npassword_command = \"pass show \\\"dav\\\"\"\r\n"
        )
        let config = AppConfig.parse(edited, file: "c.toml")
        #expect(config.sync == settings)
        #expect(config.theme == .light)
    }

    @Test("an existing [sync] has its three settings replaced; its comments and the tables after it stay")
    func replaces() throws {
        let original = """
            theme = "light"
            [sync] # the phone's calendar
            # old server:
            url = "http://old/"
            password_command = 'old'

            [keys]
            toggle = "x"
            """
        let edited = SyncTableEdit.applying(SyncSettings(url: "http://new/cal/"), to: original)
        #expect(
            edited == """
                theme = "light"
                [sync] # the phone's calendar
                url = "http://new/cal/"
                # old server:

                [keys]
                toggle = "x"
                """)
        #expect(AppConfig.parse(edited, file: "c.toml").sync == SyncSettings(url: "http://new/cal/"))
    }

    @Test("an empty or missing file becomes the table alone; a file without a final line break gets one first")
    func emptyAndUnterminated() throws {
        #expect(SyncTableEdit.applying(SyncSettings(url: "u"), to: "") == "[sync]\nurl = \"u\"\n")
        #expect(SyncTableEdit.applying(SyncSettings(url: "u"), to: "theme = \"light\"") == "theme = \"light\"\n\n[sync]\nurl = \"u\"\n")
        #expect(SyncTableEdit.quoted("a\\b\"c\td\u{1B}") == #""a\\b\"c\td\u001B""#)
    }
}
