import DBusKit
import Foundation
import PetBus
import PetCore
import PetStore
import Testing

@testable import PetService

/// History read in pages by size as well as by days (petprogress(7) §6): with the page bound
/// lowered to 128 KiB (the product's is 4 MiB, which takes a debug build's decoding too long to
/// reach in a unit test), 45 days of 60 tasks make `ExportStorePart` stop its pages before their 31
/// days, and `GetHistory` too; the pages joined are `ExportStore`'s text, which reads back as a
/// restore reads it, and paging `GetHistory` back finds every day once.
@Suite struct ExportPagingTests {
    @Test("ExportStorePart and GetHistory page by size; the pages are the whole store")
    func pagedBySize() throws {
        let berlin = try LocalZone.named("Europe/Berlin")
        let f = try ServiceFixture(now: try berlin.at("2026-03-02", "08:10"), zone: berlin)
        defer { f.close() }
        f.service.pageBytes = 128 << 10
        for n in 0..<60 {
            let time = String(format: "%02d:%02d", 10 + n / 60, n % 60)
            _ = try f.succeed(
                "AddTaskFor", [.string("Daily task number \(n) 🐸"), .string(time), .string(""), .string("daily")])
        }
        f.now = try berlin.at("2026-04-16", "10:00")  // 45 days closed, 60 tasks each
        f.service.refresh()
        #expect(f.service.world.lastClosedDay?.description == "2026-04-15")

        var joined = ""
        var after = ""
        var pages: [(days: Int, bytes: Int)] = []
        while pages.count < 100 {
            let reply = try f.succeed("ExportStorePart", [.string(after)])
            let part = try #require(reply[0].stringValue)
            let last = try #require(reply[1].stringValue)
            let more = try #require(reply[2].boolValue)
            pages.append((part.components(separatedBy: "\n{").count - 1, part.utf8.count))
            joined += part
            guard more else { break }
            #expect(last > after)
            after = last
        }
        print("ExportStorePart pages (days, bytes): \(pages)")
        #expect(pages.count >= 3, "\(pages)")
        #expect(pages.allSatisfy { $0.bytes <= (128 << 10) + 4096 && $0.days <= 31 }, "\(pages)")
        #expect(pages.dropLast().contains { $0.days < 31 }, "a page stopped by size: \(pages)")
        let whole = try #require(f.succeed("ExportStore")[0].stringValue)
        #expect(joined == whole)
        let document = #"{"format":"petprogress-export","schema":2,"store":"# + joined + "}"
        let backup = try Backup.read(document: Array(document.utf8), format: "petprogress-export", schema: 2)
        #expect(backup.history.count == 45)
        #expect(backup.history.allSatisfy { $0.tasks.count == 60 })
        #expect(backup.world == f.service.world)

        // GetHistory: fewer than 31 days a page, by size, and every day found paging back.
        var to = ""
        var keys: [String] = []
        var sizes: [Int] = []
        while sizes.count < 100 {
            let reply = try f.succeed("GetHistory", [.string(""), .string(to)])
            let days = try #require(reply[0].vardictArrayValue)
            sizes.append(days.count)
            keys = days.compactMap { $0["day_key"]?.unwrappingVariants.stringValue } + keys
            guard try #require(reply[1].boolValue), let first = keys.first, let day = CivilDate(parsing: first) else {
                break
            }
            to = day.adding(days: -1).description
        }
        print("GetHistory pages (days): \(sizes)")
        #expect(sizes.first.map { $0 < 31 } == true, "\(sizes)")
        #expect(keys.count == 45 && Set(keys).count == 45)
        #expect(keys == keys.sorted())
    }
}
