import Foundation

/// The items of list-valued header fields (RFC 9110 §5.6.1): each field cut at
/// its commas, the items trimmed, empty ones left out, in order.
/// `["gzip, identity", "br"]` → `["gzip", "identity", "br"]`.
func headerListItems(_ fields: [String]) -> [String] {
    fields.flatMap { $0.split(separator: ",") }
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
}
