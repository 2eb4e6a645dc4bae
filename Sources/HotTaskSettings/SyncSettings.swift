/// `[sync]`: the calendar collection, who to be, and how to get the password (never stored).
public struct SyncSettings: Equatable, Sendable {
    public var url: String
    public var username: String?
    /// Run by `/bin/sh`; the first line it prints is the password.
    public var passwordCommand: String?
    /// A PEM file of CA certificates to trust for HTTPS instead of the system's (a private CA).
    public var caFile: String?
    /// Requests in flight at once (1 to 32; 8 when not set).
    public var connections: Int?
    /// Several calendars, each a list: `url` is then the calendar home (where calendars for new
    /// lists are made) and these are the calendars chosen at set-up. nil: `url` is the one
    /// calendar, which holds every list.
    public var calendars: [String]?

    public init(url: String, username: String? = nil, passwordCommand: String? = nil) {
        self.url = url
        self.username = username
        self.passwordCommand = passwordCommand
    }
}
