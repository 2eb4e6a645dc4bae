import Foundation
import Testing

/// Runs todoman on `folder`'s vdir (`calendars/*`, list `tasks`), with a config and a cache of
/// the folder's own, so that tests never read the person's.
public func runTodoman(
    in folder: TemporaryFolder, _ args: [String], stdin: String? = nil, environment: [String: String]? = nil
) -> (status: Int32, stdout: String, stderr: String) {
    let config = folder.write(
        """
        path = "\(folder.path("calendars"))/*"
        date_format = "%Y-%m-%d"
        time_format = "%H:%M"
        default_list = "tasks"
        cache_path = "\(folder.path("todoman-cache.sqlite3"))"

        """, to: "todoman.py")
    return runProcess(["todo", "--config", config] + args, stdin: stdin, environment: environment)
}
