import Glibc
import PetCore
import PetStore

/// Opens the store, loads it and saves the loaded world once more (one more mutation), printing
/// `saved`, or `error STAGE ERRNO MESSAGE` for the step that failed. Exit status 0 either way.
func probeSave(directory: String) -> Int32 {
    var stage = "open"
    do {
        let store = try PetStore.open(directory: directory)
        stage = "load"
        let loaded = try store.load(now: Int64(time(nil)))
        guard case .state(var world) = loaded.start else {
            emit("error load 0 no state to save")
            return 0
        }
        stage = "save"
        world.setRollover(!world.settings.rollover)
        try store.save(world)
        emit("saved")
    } catch {
        emit("error \(stage) \(error.errno) \(error.message)")
    }
    return 0
}
