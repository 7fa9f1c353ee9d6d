import Tweets

/// Reports an archive's skipped entries on standard error, as `import` and
/// `tweets --archive` both do: the first `shown` one by one, then how many more.
func printSkipped(_ issues: [ArchiveIssue], shown: Int = 20) {
    for issue in issues.prefix(shown) { printError("skipped \(issue)") }
    if issues.count > shown { printError("… and \(issues.count - shown) more skipped") }
}
