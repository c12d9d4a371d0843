/// Command-line options: `--address ADDRESS` (default: the session bus) and `--name NAME`.
struct ServiceOptions {
    var address: String?
    var name = TestService.busName

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let option = rest.popFirst() {
            switch option {
            case "--address": address = rest.popFirst()
            case "--name": name = rest.popFirst() ?? name
            default: break
            }
        }
    }
}
