import Glibc
import LinuxKit
import PetBus
import PetCore
import PetStore

/// `ExportStore` and `Import` (petprogress(7) §5 "Import", §6.1): the store as an export carries it, and a
/// whole export made the store again.
extension PetService {
    /// The export's `store` member whole: its pages joined, refused as soon as it passes one
    /// reply's bound (the bus would drop the daemon for a larger one; `ExportStorePart` pages it).
    /// Memory stays within the bound and a page, whatever the history's size.
    func exportStore() throws(PetError) -> String {
        var text = ""
        var after = ""
        while true {
            let (part, lastDay, more) = try exportStorePart(after: after)
            text += part
            guard text.utf8.count <= PetBus.replyLimit else {
                throw PetError(
                    .storageFailure,
                    "The store is more than one reply may carry (\(PetBus.replyLimit >> 20) MiB); nothing was sent. Read it in pages with ExportStorePart (petctl export does)."
                )
            }
            guard more else { return text }
            guard lastDay > after else { throw PetError(.storageFailure, "History could not be read in order.") }
            after = lastDay
        }
    }

    /// A page of the export's `store` member (`ExportStorePart`, petprogress(7) §6.1): the records
    /// of the days after `after` (`""`: the member's opening and the first days), ascending, at most
    /// a page's worth (31 days, `PetBus.pageBytes`), and with the last of them the member's end (the
    /// world as it is now). The pages, joined, are `ExportStore`'s reply, whatever the history's size.
    func exportStorePart(after: String) throws(PetError) -> (part: String, lastDay: String, more: Bool) {
        let from = try HistoryRange.parse(from: after, to: "").from
        let page: (records: [DayRecord], more: Bool)
        do {
            page = try environment.historyAfter(from, HistoryRange.pageLimit)
        } catch {
            throw PetError(.storageFailure, "History could not be read (\(error.message)).")
        }
        var bytes = from == nil ? Backup.encodedHead : []
        var last = from
        var more = page.more
        do {
            for (i, record) in page.records.enumerated() {
                let encoded = try Backup.encoded(record, first: from == nil && i == 0)
                // Past the page's bytes: stop before this day (one day alone always fits).
                if i > 0, bytes.count + encoded.count > pageBytes {
                    more = true
                    break
                }
                bytes += encoded
                last = record.day.key
            }
        } catch {
            throw PetError(.storageFailure, "History could not be encoded (\(error.message)).")
        }
        if !more { bytes += Backup.encodedTail(world: world, hadHistory: last != nil) }
        return (String(decoding: bytes, as: UTF8.self), last?.description ?? "", more)
    }

    /// Reads the export in `file`, checks it whole and, unless `dryRun`, makes it the store: only
    /// over a store that holds nothing unless `replace`. Any refusal changes nothing. (In one go:
    /// the bus's `Import` reads off the loop, `ServiceObject.importMethod`.)
    func importDocument(_ file: FileDescriptor, replace: Bool, dryRun: Bool) throws(PetError) -> ImportSummary {
        let copier = try importChecked(file, replace: replace, dryRun: dryRun)
        let stage = try importStage(dryRun: dryRun)
        return try importFinish(
            Self.stream(file, copier: copier, into: stage), stage: stage, replace: replace, dryRun: dryRun)
    }

    /// The document measured, before anything else is done with it, and where it will be copied;
    /// a real import over a store that holds something is refused before a byte is read.
    func importChecked(_ file: FileDescriptor, replace: Bool, dryRun: Bool) throws(PetError) -> ImportCopier {
        if !replace, !dryRun, let held = holdings() { throw Self.wouldReplace(held) }
        do throws(Backup.Refusal) {
            try Self.measureDocument(file)
        } catch {
            throw Self.refused(error)
        }
        do {
            return try environment.importCopier()
        } catch {
            log("could not import: \(error)")
            throw PetError(.storageFailure, "The export could not be imported (\(error.message)).")
        }
    }

    /// Where a real import stages its new store (nil for a dry run, which writes nothing).
    func importStage(dryRun: Bool) throws(PetError) -> ImportStage? {
        guard !dryRun else { return nil }
        do {
            return try environment.beginImport()
        } catch {
            log("could not import: \(error)")
            throw PetError(.storageFailure, "The export could not be imported (\(error.message)).")
        }
    }

    /// The document copied into the data directory (`ImportCopier`) and `document` closed, then the
    /// copy read and checked as a store (`Backup.read(mapped:…)`), each record staged as it is read
    /// when `stage` is given: touches nothing of the loop's, so it may run off the loop. What is
    /// read is the daemon's own copy: the caller may truncate its file meanwhile (a mapping of that
    /// file would fault past its new end and kill the daemon); a copy cut short by a truncation
    /// during the copy reads as a document cut short.
    static func stream(_ document: FileDescriptor, copier: ImportCopier, into stage: ImportStage?)
        -> Result<Backup.Streamed, Backup.Refusal>
    {
        Result { () throws(Backup.Refusal) in
            let mapped: MappedFile
            do throws(MappedFile.CopyFailure) {
                defer { document.close() }
                mapped = try copier.copy(document, limit: PetBus.importLimit)
            } catch {
                throw copyRefusal(error)
            }
            return try Backup.read(mapped: mapped.bytes, format: PetBus.exportFormat, schema: PetBus.exportSchema) {
                (record) throws(Backup.Refusal) in
                do throws(StoreError) {
                    try stage?.append(record)
                } catch {
                    throw Backup.Refusal("the data directory could not take its history (\(error.message))")
                }
            }
        }
    }

    /// The rest of an import once the document is read: its open day checked against now, the
    /// store checked again (it may have changed meanwhile), then, unless `dryRun`, the staged
    /// store made the store. A refusal removes what was staged.
    func importFinish(
        _ read: Result<Backup.Streamed, Backup.Refusal>, stage: ImportStage?, replace: Bool, dryRun: Bool
    ) throws(PetError) -> ImportSummary {
        let streamed: Backup.Streamed
        do throws(Backup.Refusal) {
            streamed = try read.get()
            try plausible(streamed.world.openDay)
        } catch {
            if stage != nil { environment.abandonImport() }
            throw Self.refused(error)
        }
        // A check reads the document whatever the store holds, and says whether replace is needed.
        guard let stage, !dryRun else {
            var checked = summary(of: streamed.world, history: streamed, imported: false, keptIn: "")
            checked.needsReplace = !replace && holdings() != nil
            return checked
        }
        if !replace, let held = holdings() {
            environment.abandonImport()
            throw Self.wouldReplace(held)
        }
        let restored: (kept: String, loaded: Loaded)
        do {
            restored = try environment.commitImport(stage, streamed.world, now)
        } catch {
            environment.abandonImport()
            log("could not import: \(error)")
            throw PetError(.storageFailure, "The export could not be imported (\(error.message)).")
        }
        for problem in restored.loaded.problems { log(problem) }
        guard case .state(let loaded) = restored.loaded.start else {
            throw PetError(
                .storageFailure, "The imported state could not be read back; the previous data is in \(restored.kept).")
        }
        world = loaded
        log("imported an export (\(streamed.days) closed days); the previous data is in \(restored.kept)")
        let reply = summary(of: loaded, history: streamed, imported: true, keptIn: restored.kept)
        // As at a start: days that ended since the export close now, with their own signals.
        refresh()
        emit(.tasksChanged)
        emit(.settingsChanged(world.settings))
        emit(.widgetEntryChanged(widgetEntry()))
        return reply
    }

    private static func refused(_ refusal: Backup.Refusal) -> PetError {
        PetError(.invalidArgument, "The export cannot be imported: \(refusal.message); nothing was changed.")
    }

    private static func wouldReplace(_ held: String) -> PetError {
        PetError(
            .invalidArgument,
            "Pet Progress already holds \(held); importing would replace it. Nothing was changed: import with replace (petctl import --replace) to keep the current data in a copy inside the data directory and replace it."
        )
    }

    /// The longest open day an export may hold (a day is 12 to about 36 hours; a zone change or a
    /// changed reset time stretches one, never past this).
    static let longestOpenDay: Instant = 50 * 3600

    /// An open day the daemon could have written (petprogress(7) §5): keyed by the local date of its
    /// start (a day either side, for an export made in another zone), 1 to 50 hours long, starting
    /// no later than a day after now. Anything else would be caught up, or waited for, for years.
    func plausible(_ day: Day) throws(Backup.Refusal) {
        let local = zone.localDate(at: day.start)
        guard day.key >= local.adding(days: -1), day.key <= local.adding(days: 1) else {
            throw Backup.Refusal("its open day \(day.key) does not start on that date (it starts on \(local))")
        }
        let length = day.end - day.start
        guard length >= 3600, length <= Self.longestOpenDay else {
            throw Backup.Refusal(
                "its open day \(day.key) lasts \(length / 3600) hours and \(length % 3600 / 60) minutes, not 1 to 50 hours"
            )
        }
        guard day.start <= now + 86_400 else {
            throw Backup.Refusal("its open day \(day.key) starts more than a day from now")
        }
    }

    /// What the store holds that an import would replace, in words; nil when it holds nothing.
    private func holdings() -> String? {
        var found: [String] = []
        if environment.hasHistory() { found.append("history") }
        if !world.tasks.isEmpty || !world.tomorrow.isEmpty { found.append("tasks") }
        if !world.templates.isEmpty { found.append("repeating tasks") }
        if !world.restDays.isEmpty { found.append("rest days") }
        if world.settings != Settings() { found.append("changed settings") }
        if world.openingPet != .hatchling { found.append("a pet past its first day") }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    private func summary(of imported: PetWorld, history: Backup.Streamed, imported done: Bool, keptIn: String)
        -> ImportSummary
    {
        let pet = imported.livePet(stages)
        return ImportSummary(
            imported: done, keptIn: keptIn, days: history.days, historyTasks: history.tasks,
            firstDay: history.firstDay.map { "\($0)" } ?? "", lastDay: history.lastDay.map { "\($0)" } ?? "",
            openDay: "\(imported.openDay.key)", openTasks: imported.tasks.count, tomorrowTasks: imported.tomorrow.count,
            templates: imported.templates.count, restDays: imported.restDays.count,
            stageIndex: pet.stageIndex, stageName: stages.stage(pet.stageIndex).name,
            stageXP: pet.stageXP)
    }

    /// The document measured (`fstat` alone): only a regular file (a pipe, a socket or a device
    /// could block the daemon or never end), at most `PetBus.importLimit`, refused by its size
    /// before a byte is read, whoever owns it (petctl opened it).
    static func measureDocument(_ file: FileDescriptor) throws(Backup.Refusal) {
        do throws(SmallFile.Failure) {
            _ = try SmallFile.checked(file, limit: PetBus.importLimit, owner: .anyone)
        } catch {
            throw documentRefusal(error)
        }
    }

    private static func documentRefusal(_ error: SmallFile.Failure) -> Backup.Refusal {
        switch error {
        case .notRegular(let kind):
            Backup.Refusal(
                "it must be passed as a regular file, not \(kind == "a directory" ? kind : "a pipe, a socket or a device")"
            )
        case .tooLarge(let size, _):
            Backup.Refusal("it is larger than \(PetBus.importLimit >> 20) MiB (\(size) bytes)")
        default:
            Backup.Refusal("the passed descriptor cannot be used (\(error))")
        }
    }

    /// Why the daemon's copy of the document could not be had, as a refusal's sentence.
    private static func copyRefusal(_ error: MappedFile.CopyFailure) -> Backup.Refusal {
        switch error {
        case .source(let failure):
            return documentRefusal(failure)
        case .noRoom(let needed, let available):
            return Backup.Refusal(
                "the data directory's disk has too little room to copy it first (\(mebibytes(needed)) MiB needed, \(mebibytes(available)) MiB free)"
            )
        case .copy(let failure) where failure.errno == ENOSPC || failure.errno == EDQUOT:
            return Backup.Refusal("the data directory's disk filled while it was copied there (\(failure.reason))")
        case .copy(let failure):
            return Backup.Refusal("it could not be copied into the data directory (\(failure))")
        }
    }

    /// Bytes in MiB, rounded up (a need of 1 byte is not "0 MiB").
    private static func mebibytes(_ bytes: Int64) -> Int64 { (bytes + (1 << 20) - 1) >> 20 }
}

/// An import's read: what the thread that copies and reads the document is given (a descriptor of
/// the passed file of its own, which it closes once copied; where to copy it; where to stage it),
/// and its result, read on the loop after that thread is joined (`OffLoopWork` orders the two).
final class ParsedImport: @unchecked Sendable {
    let document: FileDescriptor
    let copier: ImportCopier
    let stage: ImportStage?
    var parsed: Result<Backup.Streamed, Backup.Refusal>?

    init(document: FileDescriptor, copier: ImportCopier, stage: ImportStage?) {
        (self.document, self.copier, self.stage) = (document, copier, stage)
    }

    /// Copies, reads and stages the document (`PetService.stream`).
    func read() { parsed = PetService.stream(document, copier: copier, into: stage) }
}
