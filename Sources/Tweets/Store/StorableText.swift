extension String {
    /// The string with each U+0000 replaced by U+FFFD. SQLite reads a bound
    /// text up to its first NUL, so a text holding one (`\u0000` in a JSON
    /// dump) would be stored cut short without a word; the replacement keeps
    /// the rest and marks where the NUL was, as the terminal shows control
    /// characters.
    var storable: String {
        utf8.contains(0) ? replacing("\u{0}", with: "\u{FFFD}") : self
    }
}
