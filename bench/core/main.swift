import Foundation
import PetCore

// PetCore benchmark (docs/BENCHMARKS.md, "PetCore"). Not a test: it prints costs.
// Usage: swift run -c release --scratch-path .build-core2 bench-core
let fixture = CoreBench.fiftyTaskDay()
CoreBench.report("widget entry, day of 50 tasks", batches: 15, perBatch: 2000) {
    blackHole(fixture.world.widgetEntry(fixture.ctx).upcoming.count)
}
CoreBench.report("timeline (24 entries), day of 50 tasks", batches: 15, perBatch: 100) {
    blackHole(fixture.world.timeline(fixture.ctx).count)
}
CoreBench.report("GetPet keys", batches: 15, perBatch: 20000) {
    blackHole(fixture.world.petView(fixture.ctx).stageXP)
}
CoreBench.report("ListTasks records, day of 50 tasks", batches: 15, perBatch: 2000) {
    blackHole(fixture.world.openDayRecords(fixture.ctx).count)
}
CoreBench.sweep()
CoreBench.report("simulate 3650 days x 10 tasks", batches: 5, perBatch: 5) {
    if let config = try? SimulationConfig(days: 3650, tasksPerDay: 10, doneRate: 0.8, onTimeRate: 0.7, seed: 7) {
        blackHole(Simulator.run(config).final.stageIndex)
    }
}
