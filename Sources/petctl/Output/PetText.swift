import PetCore

/// The pet and XP changes as the story commands write them.
enum PetText {
    /// `Frog 12/30`; at the final stage, where XP keeps counting, `Floating God 7 XP`.
    static func short(_ pet: PetState, _ stages: StageTable) -> String {
        let state = stages.clamp(pet)
        let stage = stages.stage(state.stageIndex)
        let name = trc("pet form", dynamic: stage.name)
        if state.stageIndex == stages.finalIndex || state.stageXP >= stage.threshold {
            return tr("%s %d XP", name, state.stageXP)
        }
        return "\(name) \(state.stageXP)/\(stage.threshold)"
    }

    /// The form's name in the user's language (a custom table's own names as written).
    static func name(_ pet: PetView) -> String { trc("pet form", dynamic: pet.stageName) }

    /// `12/30 XP`; `7 XP` at the final stage; and, when a smaller stage table came into force,
    /// XP at or past the threshold says what happens next rather than `50/20 XP`.
    static func xp(_ pet: PetView) -> String {
        if pet.isFinal { return tr("%d XP", pet.stageXP) }
        if pet.stageXP >= pet.threshold { return tr("%d XP, evolves at the next XP earned", pet.stageXP) }
        return tr("%d/%d XP", pet.stageXP, pet.threshold)
    }

    /// A repeat rule as the screens say it: `daily` and `weekdays` in the user's language, a list of
    /// days as `--repeat` takes it (`mon,wed`).
    static func rule(_ rule: String) -> String {
        switch rule {
        case "daily": trc("repeat rule", "daily")
        case "weekdays": trc("repeat rule", "weekdays")
        default: days(rule)
        }
    }

    /// `mon,wed` in the locale's short weekday names (`Mo,Mi`, `lun.,mer.`); C keeps petctl's
    /// own names, which are also what `--repeat` takes.
    static func days(_ rule: String) -> String {
        let names = rule.split(separator: ",").map(String.init)
        let days = names.compactMap(Weekday.init(shortName:))
        guard days.count == names.count, !LocalClock.isCLocale else { return rule }
        return days.map(LocalClock.weekdayShortName).joined(separator: ",")
    }

    /// `+2`, `−2` (a true minus sign), `±0`.
    static func signed(_ xp: Int) -> String { xp > 0 ? "+\(xp)" : xp < 0 ? "−\(-xp)" : "±0" }
}
