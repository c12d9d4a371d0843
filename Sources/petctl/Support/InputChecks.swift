import ArgumentParser
import PetCore

/// petctl's own checks of a title and a repeat before anything is sent (the daemon makes the
/// same ones): PetCore's rules, with the sentence in the user's language (`PetError`'s are English,
/// as the bus's are).
enum InputChecks {
    /// A title of 1–200 characters without control characters, else bad usage with the sentence.
    static func title(_ raw: String) throws {
        do throws(PetError) {
            _ = try TaskTitle.validate(raw)
        } catch {
            let count = raw.trimmingWhitespace.unicodeScalars.count
            throw ValidationError(
                count == 0
                    ? tr("The title is empty; give the task a name.")
                    : count > TaskTitle.maxLength
                        ? tr("The title has %d characters; the limit is %d.", count, TaskTitle.maxLength)
                        : tr("The title contains a control character (such as a newline or tab); remove it."))
        }
    }

    /// `daily`, `weekdays` or days such as `mon,wed,fri`, else bad usage with the sentence.
    static func repeatRule(_ text: String) throws {
        do throws(PetError) {
            _ = try Repeat.parse(text)
        } catch {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let known = names.allSatisfy { Weekday(shortName: $0) != nil }
            throw ValidationError(
                known
                    ? tr("The repeat %s names a weekday twice.", quoted(text))
                    : tr(
                        "The repeat must be daily, weekdays, or a comma list of mon,tue,wed,thu,fri,sat,sun, not %s.",
                        quoted(text)))
        }
    }
}
