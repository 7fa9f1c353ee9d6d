/// A loud warning when Bench was built without optimization: debug timings are
/// 10–100× off and must never be quoted.
enum BuildBanner {
    #if DEBUG
    static let isDebug = true
    #else
    static let isDebug = false
    #endif

    static var configuration: String { isDebug ? "debug" : "release" }

    static func printIfDebug() {
        guard isDebug else { return }
        let line = String(repeating: "!", count: 78)
        writeToStandardError("""
            \(line)
            !!  DEBUG BUILD: these numbers are meaningless. Run:                        !!
            !!    swift run -c release Bench …                                          !!
            \(line)

            """)
    }
}
